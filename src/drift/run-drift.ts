import { randomBytes, randomUUID } from 'node:crypto';
import type { Profile } from '../profile/profile-schema.js';
import { checkCallbacks } from './check-callbacks.js';
import { compareAnswers } from './compare-answers.js';
import type { DriftReport, ProbeOutcome } from './drift-report.js';
import type { CreatedTrade, Credentials, Difference, DriftCallbacks, DriftEvent, DriftReference, ProbeAnswer } from './drift-types.js';
import { errorCodePath } from './error-template.js';
import { findAdoptions } from './find-adoptions.js';
import { PROBES, signingProbe, TRADE_PROBES, type Probe, type ProbeDraw, type ProbeSide } from './probes.js';
import { otherSigners, profileSigner, tokenSigner, type RequestSigner } from './request-signer.js';
import { SendError, sendProbe } from './send-probe.js';

export interface DriftOptions {
  /** The provider's base URL, up to /api/v1. */
  target: string;
  credentials: Credentials;
  /** A second merchant, for get.other_merchant_trade. */
  other?: Credentials;
  profile: Profile;
  /** How --profile named it (a built-in's name or a file), for the report and --write-profile. */
  profileSource: string;
  reference: DriftReference;
  callbacks?: DriftCallbacks;
  /** amount_cents of the trades created (default 1, the smallest). */
  amount?: number;
  /** The least time between two requests to the target (default 200 ms). */
  gapMs?: number;
  /** How long a request may take (default 15 s). */
  timeoutMs?: number;
  onEvent?: (event: DriftEvent) => void;
}

/** At most this many requests go to the target in one run. */
export const MAX_TARGET_REQUESTS = 40;
export const DEFAULT_GAP_MS = 200;
const DEFAULT_TIMEOUT_MS = 15_000;

/** Why a run stopped before its end. */
class Stop extends Error {
  constructor(
    readonly probe: string,
    message: string,
  ) {
    super(message);
  }
}

const newDraw = (): ProbeDraw => ({
  order: `drift-${randomBytes(6).toString('hex')}`,
  uuid: randomUUID(),
  wrongToken: `drift-not-a-token-${randomBytes(8).toString('hex')}`,
  wrongSecret: `drift-not-a-secret-${randomBytes(16).toString('hex')}`,
});

const isSuccess = (status: number) => status >= 200 && status < 300;

/**
 * Sends the probes (PROBES, docs/drift.md) to the target and to the reference sandbox, and
 * compares each pair of answers; with `callbacks`, waits for the callbacks of the valid trades
 * from both and compares them too. At most MAX_TARGET_REQUESTS requests go to the target, at
 * least `gapMs` apart, never following a redirect; the run stops at the first answer of the
 * target that is not JSON (a login page, a proxy) and says so in `stopped`.
 *
 * When the target refuses the valid create with 401 and the sandbox accepts it, the other
 * built-in signings (and the token alone) are tried, one create each; the first the target
 * accepts is used on both sides from then on (the reference follows the profile with that
 * signing), so the other probes compare like with like.
 */
export async function runDrift(options: DriftOptions): Promise<DriftReport> {
  const { profile, reference } = options;
  const gapMs = options.gapMs ?? DEFAULT_GAP_MS;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const amount = options.amount ?? 1;
  await reference.setProfile(profile);

  const signer = profileSigner(profile);
  const targetTrades = new Map<string, { id: string; order: string }>();
  const sandboxTrades = new Map<string, { id: string; order: string }>();
  const side = (trades: Map<string, { id: string; order: string }>, callbackUrl: string | undefined, using: RequestSigner): ProbeSide => ({
    credentials: options.credentials,
    ...(options.other ? { other: options.other } : {}),
    signer: using,
    ...(callbackUrl !== undefined ? { callbackUrl } : {}),
    trades,
  });
  let targetSide = side(targetTrades, options.callbacks?.targetUrl, signer);
  let sandboxSide = side(sandboxTrades, options.callbacks?.sandbox.url, signer);
  const codePath = errorCodePath(profile.errors.body);

  const differences: Difference[] = [];
  const outcomes: ProbeOutcome[] = [];
  const created: CreatedTrade[] = [];
  const targetErrors: Array<{ probe: string; answer: ProbeAnswer }> = [];
  const found: { signing?: RequestSigner; namesTrade?: { sandbox: boolean; target: boolean } } = {};
  let requests = 0;
  let lastAnswered = 0;

  const sendToTarget = async (probe: Probe, draw: ProbeDraw): Promise<ProbeAnswer> => {
    if (requests >= MAX_TARGET_REQUESTS) throw new Stop(probe.id, `the run would send more than ${MAX_TARGET_REQUESTS} requests to the target`);
    // The gap runs from the end of the last exchange, so that the target sees requests at least gapMs apart.
    const wait = lastAnswered + gapMs - performance.now();
    if (requests > 0 && wait > 0) await new Promise((resolve) => setTimeout(resolve, Math.ceil(wait)));
    const request = probe.build(targetSide, draw, amount);
    requests += 1;
    let answer: ProbeAnswer;
    try {
      answer = await sendProbe(options.target, request, timeoutMs);
    } catch (error) {
      if (error instanceof SendError) throw new Stop(probe.id, error.message);
      throw error;
    } finally {
      lastAnswered = performance.now();
    }
    if (answer.status >= 300 && answer.status < 400) {
      throw new Stop(
        probe.id,
        `the target answered ${answer.status}${answer.headers['location'] ? ` redirecting to ${answer.headers['location']}` : ''}; drift follows no redirect: give the base URL the API answers at`,
      );
    }
    if (!answer.isJson) {
      const start = answer.text.slice(0, 120).replace(/\s+/g, ' ').trim();
      throw new Stop(
        probe.id,
        `the target answered ${answer.status} with ${answer.contentType || 'no Content-Type'} that is not JSON${start ? ` (${JSON.stringify(start)}...)` : ' (an empty body)'}: a login page, a proxy or another service answers at this URL`,
      );
    }
    if (request.method === 'POST' && isSuccess(answer.status)) noteCreated(probe.id, answer, draw.order, request.body);
    return answer;
  };

  const noteCreated = (probe: string, answer: ProbeAnswer, order: string, sent: string | undefined) => {
    const body = answer.json as { id?: unknown; payment_data?: { url?: unknown } } | null;
    const id = typeof body?.id === 'string' ? body.id : '(no id in the answer)';
    const url = typeof body?.payment_data?.url === 'string' ? body.payment_data.url : undefined;
    const type = (JSON.parse(sent ?? '{}') as { type?: unknown }).type;
    created.push({ probe, id, order, type: typeof type === 'string' ? type : '', ...(url !== undefined ? { url } : {}) });
  };

  const sendToSandbox = async (probe: Probe, draw: ProbeDraw): Promise<ProbeAnswer> => {
    const answer = await sendProbe(reference.url, probe.build(sandboxSide, draw, amount), timeoutMs);
    if (!answer.isJson) throw new Error(`The in-process sandbox answered ${probe.id} with ${answer.status} and no JSON: ${answer.text.slice(0, 200)}`);
    return answer;
  };

  const remember = (trades: Map<string, { id: string; order: string }>, probe: string, answer: ProbeAnswer, order: string) => {
    const id = (answer.json as { id?: unknown } | null)?.id;
    if (isSuccess(answer.status) && typeof id === 'string') trades.set(probe, { id, order });
  };

  let stopped: DriftReport['stopped'];
  try {
    for (const probe of PROBES) {
      if (probe.needsOther && !options.other) {
        if (probe.compared) outcomes.push({ probe: probe.id, what: probe.what, result: 'skipped', why: 'needs a second merchant: --other-merchant, --other-token and --other-secret' });
        continue;
      }
      if (probe.needs !== undefined && !(targetTrades.has(probe.needs) && sandboxTrades.has(probe.needs))) {
        const where = [targetTrades.has(probe.needs) ? '' : 'the target', sandboxTrades.has(probe.needs) ? '' : 'the sandbox'].filter(Boolean).join(' and ');
        if (probe.compared) outcomes.push({ probe: probe.id, what: probe.what, result: 'skipped', why: `needs the trade of ${probe.needs}, which ${where} did not create` });
        continue;
      }
      const draw = newDraw();
      let target = await sendToTarget(probe, draw);
      const sandbox = await sendToSandbox(probe, draw);
      const own: Difference[] = [];
      let targetOrder = draw.order;
      if (probe.id === TRADE_PROBES.any_bank && target.status === 401 && isSuccess(sandbox.status)) {
        const refused = target;
        const search = await findSigning(targetSide.signer, async (attempt) => {
          const attemptDraw = newDraw();
          const answer = await sendToTarget(attempt, attemptDraw);
          options.onEvent?.({ type: 'signing', probe: attempt.id, label: attempt.what, status: answer.status });
          return { answer, order: attemptDraw.order };
        });
        const tried = search.tried;
        if (search.accepted) {
          found.signing = search.accepted.signer;
          target = search.accepted.answer;
          targetOrder = search.accepted.order;
        }
        const accepted = found.signing;
        own.push({
          probe: probe.id,
          aspect: 'status',
          path: '',
          sandbox: sandbox.status,
          target: refused.status,
          note: accepted
            ? `signed as ${signer.id} (${signer.label}); the target accepts ${accepted.id === 'token' ? 'the token alone' : `requests signed as ${accepted.id} signs them (${accepted.label})`}, which the rest of the run uses`
            : `signed as ${signer.id} (${signer.label}); the target accepted none of the other ways tried (${tried.join(', ')})`,
        });
        if (accepted) {
          targetSide = { ...targetSide, signer: accepted };
          sandboxSide = { ...sandboxSide, signer: accepted };
          if (accepted.signing) await reference.setProfile({ ...profile, requests: { ...profile.requests, signature: accepted.signing } });
        }
      }
      remember(targetTrades, probe.id, target, targetOrder);
      remember(sandboxTrades, probe.id, sandbox, draw.order);
      options.onEvent?.({ type: 'probe', probe: probe.id, target: target.status, sandbox: sandbox.status });
      if (!probe.compared) continue;
      if (target.status >= 400) targetErrors.push({ probe: probe.id, answer: target });
      // After a signing search the refused status is already a difference: the accepted answer is compared when it matches the sandbox's.
      const searched = own.length > 0;
      if (!searched || target.status === sandbox.status) own.push(...compareAnswers(probe.id, sandbox, target, codePath));
      if (probe.id === 'create.repeated_order' && sandbox.status >= 400 && target.status >= 400) {
        const namesTrade = (answer: ProbeAnswer, trades: Map<string, { id: string }>) => answer.text.toLowerCase().includes((trades.get(TRADE_PROBES.any_bank)?.id ?? '\u0000').toLowerCase());
        found.namesTrade = { sandbox: namesTrade(sandbox, sandboxTrades), target: namesTrade(target, targetTrades) };
        if (found.namesTrade.sandbox !== found.namesTrade.target) {
          own.push({
            probe: probe.id,
            aspect: 'error_shape',
            path: "earlier trade's id",
            sandbox: found.namesTrade.sandbox ? 'named' : 'not named',
            target: found.namesTrade.target ? 'named' : 'not named',
          });
        }
      }
      differences.push(...own);
      outcomes.push({ probe: probe.id, what: probe.what, result: own.length > 0 ? 'different' : 'same' });
    }
  } catch (error) {
    if (!(error instanceof Stop)) throw error;
    stopped = { probe: error.probe, why: error.message };
  }

  const callbackResult =
    options.callbacks && !stopped
      ? await checkCallbacks({
          profile: { ...profile, requests: { ...profile.requests, signature: found.signing?.signing ?? profile.requests.signature } },
          callbacks: options.callbacks,
          reference,
          secret: options.credentials.secret,
          targetTrades,
          sandboxTrades,
          created,
          ...(options.onEvent ? { onEvent: options.onEvent } : {}),
        })
      : undefined;
  if (callbackResult) {
    differences.push(...callbackResult.differences);
    outcomes.push(...callbackResult.outcomes);
  }

  const adoptions = findAdoptions({ profile, signing: found.signing, namesTrade: found.namesTrade, callbacks: callbackResult, differences, targetErrors, codePath });
  const skipped = outcomes.filter((outcome) => outcome.result === 'skipped').map((outcome) => ({ probe: outcome.probe, why: outcome.why ?? '' }));
  return {
    target: options.target,
    profile: profile.name,
    probes: outcomes.filter((outcome) => outcome.result !== 'skipped').length,
    differences,
    requests,
    skipped,
    trades: created,
    signing: found.signing ? { used: found.signing.id, label: found.signing.label, accepted_instead: true } : { used: signer.id, label: signer.label },
    cannot_see: cannotSee(profile, options.callbacks !== undefined),
    adoptions: adoptions.adopted,
    not_adoptable: adoptions.notAdoptable,
    ...(stopped ? { stopped } : {}),
    outcomes,
  };
}

/**
 * Tries the other ways to authenticate (otherSigners()) until the target accepts one. A signing
 * in a header of its own also sends the token, so once it is accepted it is sent again with a
 * wrong token (accepted: the signature is what counts) and then with a wrong signature
 * (accepted: the target takes the token alone, and that is what is found).
 */
async function findSigning(
  used: RequestSigner,
  send: (probe: Probe) => Promise<{ answer: ProbeAnswer; order: string }>,
): Promise<{ tried: string[]; accepted?: { signer: RequestSigner; answer: ProbeAnswer; order: string } }> {
  const tried: string[] = [];
  for (const signer of otherSigners(used)) {
    tried.push(signer.id);
    const sent = await send(signingProbe(signer));
    if (!isSuccess(sent.answer.status)) continue;
    if (signer.signing?.header !== undefined && !isSuccess((await send(signingProbe(signer, 'token'))).answer.status)) {
      if (isSuccess((await send(signingProbe(signer, 'secret'))).answer.status)) return { tried, accepted: { signer: tokenSigner(), ...sent } };
    }
    return { tried, accepted: { signer, ...sent } };
  }
  return { tried };
}

/** What no run can learn from outside, under this profile. */
function cannotSee(profile: Profile, callbacks: boolean): string[] {
  const answer = profile.callbacks.acknowledge === 'code-zero' ? '{"code":0}' : 'OK';
  return [
    `what acknowledges a callback (callbacks.acknowledge): the run answered every callback 200 ${answer}, as ${profile.callbacks.acknowledge} asks, so it never learns what the target would refuse`,
    'the retry schedule (callbacks.retries): retries come only after a callback is not acknowledged, at times the target picks',
    'whether callbacks come on every change or only for final states (callbacks.send_on), and states between created and the final ones (states.intermediate): the run moves no trade on the target',
    ...(callbacks ? [] : ["callbacks: not checked; pass --listen and --callback-url to receive the target's callbacks"]),
  ];
}
