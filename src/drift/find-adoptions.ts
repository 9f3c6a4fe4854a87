import type { Profile } from '../profile/profile-schema.js';
import type { CallbackCheck } from './check-callbacks.js';
import type { Difference, ProbeAnswer } from './drift-types.js';
import { inferErrorTemplate } from './error-template.js';
import { jsonShape } from './json-shape.js';
import type { RequestSigner } from './request-signer.js';
import type { Adoption } from './write-profile.js';

export interface AdoptionInput {
  profile: Profile;
  /** The signing the target accepted instead of the profile's. */
  signing: RequestSigner | undefined;
  /** Whether the 422 of a repeated order names the earlier trade, on each side. */
  namesTrade: { sandbox: boolean; target: boolean } | undefined;
  callbacks: CallbackCheck | undefined;
  differences: readonly Difference[];
  /** The target's error answers, by probe. */
  targetErrors: ReadonlyArray<{ probe: string; answer: ProbeAnswer }>;
  codePath: string | undefined;
}

const X_SANDBOX = ['x-sandbox-event-id', 'x-sandbox-attempt'];
const TRADE_ID = "earlier trade's id";

/**
 * What a profile can take over from the target (each with the probe that showed it), and the
 * differences no profile key can say.
 */
export function findAdoptions(input: AdoptionInput): { adopted: Adoption[]; notAdoptable: string[] } {
  const adopted: Adoption[] = [];
  const notAdoptable: string[] = [];
  const covered = new Set<Difference>();
  const { profile } = input;

  const signing = input.signing;
  if (signing?.signing) {
    adopted.push({ key: 'requests.signature', value: signing.signing, probe: 'create.any_bank', why: `the target accepts requests signed as ${signing.id} signs them (${signing.label})` });
  } else if (signing) {
    notAdoptable.push("the target accepts the merchant's token alone, without a signature: a profile always names a signing (the sandbox accepts the token too, unless it runs with --auth signature)");
  }
  if (signing) for (const difference of input.differences) if (difference.probe === 'create.any_bank' && difference.aspect === 'status' && difference.note) covered.add(difference);

  if (input.namesTrade && input.namesTrade.target !== profile.requests.duplicate_order_names_trade) {
    adopted.push({
      key: 'requests.duplicate_order_names_trade',
      value: input.namesTrade.target,
      probe: 'create.repeated_order',
      why: `the target's 422 for a repeated order ${input.namesTrade.target ? 'names' : 'does not name'} the earlier trade's id`,
    });
  }
  for (const difference of input.differences) if (difference.path === TRADE_ID) covered.add(difference);

  const pair = input.callbacks?.pairs.find((candidate) => candidate.sandbox && candidate.target);
  if (pair?.sandbox && pair.target) {
    const shared = pair.sandbox.schemes.some((ours) => pair.target?.schemes.some((theirs) => theirs.id === ours.id));
    const scheme = pair.target.schemes[0];
    const signature = signing?.signing ?? profile.requests.signature;
    if (!shared && scheme === undefined) {
      notAdoptable.push(`${pair.probe}: no built-in callback scheme verifies the target's callbacks with this secret (profile detect --callback tells which were tried)`);
    } else if (!shared && scheme) {
      const kind = scheme.profile.callbacks.signature;
      if (kind === 'request-style' && JSON.stringify(scheme.profile.requests.signature) !== JSON.stringify(signature)) {
        notAdoptable.push(`${pair.probe}: the callbacks verify as ${scheme.name}, but requests are signed otherwise; a profile signs both alike`);
      } else {
        adopted.push({ key: 'callbacks.signature', value: kind, probe: pair.probe, why: `the target's callbacks verify as ${scheme.name}: ${scheme.label}` });
        for (const difference of input.differences) if (difference.aspect === 'callback' && difference.path === 'signature') covered.add(difference);
      }
    }
    const present = X_SANDBOX.filter((name) => pair.target?.callback.headers[name] !== undefined).length;
    const theirs = present === X_SANDBOX.length ? true : present === 0 ? false : undefined;
    if (theirs !== undefined && theirs !== profile.callbacks.sandbox_headers) {
      adopted.push({ key: 'callbacks.sandbox_headers', value: theirs, probe: pair.probe, why: `the target's callbacks ${theirs ? 'carry' : 'carry no'} X-Sandbox-Event-Id and X-Sandbox-Attempt` });
      for (const difference of input.differences) if (difference.aspect === 'header' && difference.path.startsWith('x-sandbox-')) covered.add(difference);
    }
  }

  const shapeDifferences = input.differences.filter((d) => d.aspect === 'error_shape' && d.path !== input.codePath && d.path !== TRADE_ID);
  if (shapeDifferences.length > 0) {
    const template = errorTemplate(input.targetErrors);
    if (template && template.template !== profile.errors.body) {
      adopted.push({
        key: 'errors.body',
        value: template.template,
        probe: template.probe,
        why: `the target's error bodies have another shape (${shapeDifferences.length} differences); this template renders the shape of its answer to ${template.probe}`,
      });
      for (const difference of shapeDifferences) covered.add(difference);
    }
  }

  const rest = new Map<string, string[]>();
  for (const difference of input.differences) {
    if (covered.has(difference)) continue;
    const line = `${difference.aspect}${difference.path ? ` ${difference.path}` : ''}: sandbox ${difference.sandbox}, target ${difference.target}`;
    rest.set(line, [...(rest.get(line) ?? []), difference.probe]);
  }
  for (const [line, probes] of rest) notAdoptable.push(`${probes.join(', ')}: ${line}`);
  return { adopted, notAdoptable };
}

/** A template of the target's most common error shape, and the probe whose answer it follows. */
function errorTemplate(errors: AdoptionInput['targetErrors']): { template: string; probe: string } | undefined {
  const groups = new Map<string, Array<{ probe: string; answer: ProbeAnswer }>>();
  for (const error of errors) {
    const key = [...jsonShape(error.answer.json).keys()]
      .filter((path) => !path.includes('[]'))
      .sort()
      .join(',');
    groups.set(key, [...(groups.get(key) ?? []), error]);
  }
  const largest = [...groups.values()].sort((a, b) => b.length - a.length)[0]?.[0];
  if (!largest) return undefined;
  const template = inferErrorTemplate(largest.answer.json, largest.answer.status);
  return template === undefined ? undefined : { template, probe: largest.probe };
}
