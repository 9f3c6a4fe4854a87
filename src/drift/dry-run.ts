import type { Profile } from '../profile/profile-schema.js';
import type { Credentials, ProbeRequest } from './drift-types.js';
import { PROBES, signingProbe, type Probe, type ProbeDraw, type ProbeSide } from './probes.js';
import { otherSigners, profileSigner, type RequestSigner } from './request-signer.js';
import { MAX_TARGET_REQUESTS } from './run-drift.js';

export interface DryRunOptions {
  target: string;
  credentials: Credentials;
  other?: Credentials;
  profile: Profile;
  /** --callback-url, when callbacks are checked. */
  callbackUrl?: string;
  amount: number;
  gapMs: number;
  waitMs: number;
}

const WRONG_SECRET = '\u0002a wrong secret\u0002';

/** A signer that shows what travels instead of the values: `<token>`, `<signature>`. */
function shownSigner(signer: RequestSigner, options: DryRunOptions): RequestSigner {
  return {
    ...signer,
    headers: (endpoint, values, credentials, spoil) => {
      const headers = signer.headers(endpoint, values, credentials, spoil);
      const whose = options.other && credentials.merchant === options.other.merchant ? "the second merchant's " : '';
      for (const [name, value] of Object.entries(headers)) {
        if (value === credentials.token) headers[name] = `<${whose}token>`;
        else if (spoil?.token !== undefined && value === spoil.token) headers[name] = value;
        else headers[name] = spoil?.secret !== undefined ? '<signature made with a wrong secret>' : `<${whose}signature>`;
      }
      return headers;
    },
  };
}

function shown(request: ProbeRequest): string[] {
  return [
    `  ${request.method} ${decodeURIComponent(request.path)}`,
    ...Object.entries(request.headers).map(([name, value]) => `  ${name}: ${value}`),
    ...(request.body !== undefined ? [`  ${request.body}`] : []),
  ];
}

/**
 * What a run would send to the target, request by request, with the token and signatures shown
 * as `<token>` and `<signature>`, random values as `drift-<random>` and `<random uuid>`, and the
 * trade a probe reads as `<id of create.any_bank's trade>`. Sends nothing.
 */
export function dryRunText(options: DryRunOptions): string {
  const signer = profileSigner(options.profile);
  const trades = new Map<string, { id: string; order: string }>();
  for (const probe of PROBES) trades.set(probe.id, { id: `<id of ${probe.id}'s trade>`, order: `<order of ${probe.id}>` });
  const side = (using: RequestSigner): ProbeSide => ({
    credentials: options.credentials,
    ...(options.other ? { other: options.other } : {}),
    signer: shownSigner(using, options),
    ...(options.callbackUrl !== undefined ? { callbackUrl: options.callbackUrl } : {}),
    trades,
  });
  const draw: ProbeDraw = { order: 'drift-<random>', uuid: '<random uuid>', wrongToken: "<a token that is no merchant's>", wrongSecret: WRONG_SECRET };
  const block = (probe: Probe, using: RequestSigner) => [`${probe.id}: ${probe.what}`, ...shown(probe.build(side(using), draw, options.amount)), ''];
  const lines = [
    `drift --dry-run: what a run sends to ${options.target} (nothing was sent)`,
    `  profile ${options.profile.name}; valid requests authenticated as ${signer.id}: ${signer.label}`,
    `  at most ${MAX_TARGET_REQUESTS} requests, at least ${options.gapMs} ms apart; orders drift-<random>, amount_cents ${options.amount}; redirects are not followed`,
    '  the same requests go to a sandbox in this process with the same profile and credentials',
    '',
  ];
  const extra = otherSigners(signer);
  for (const probe of PROBES) {
    if (probe.needsOther && !options.other) {
      lines.push(`${probe.id}: ${probe.what}`, '  not sent: needs --other-merchant, --other-token and --other-secret', '');
      continue;
    }
    lines.push(...block(probe, signer));
    if (probe.id === 'create.any_bank') {
      lines.push(`Only when the target refuses create.any_bank with 401 and the sandbox accepts it: one create each, in this order, until the target accepts one (${extra.length} at most):`, '');
      for (const other of extra) lines.push(...block(signingProbe(shownSigner(other, options)), other));
    }
  }
  lines.push(
    options.callbackUrl !== undefined
      ? `Callbacks: the trades carry callback_url ${options.callbackUrl}; after the probes the run waits up to ${Math.round(options.waitMs / 1000)} s for the target's callbacks of create.any_bank, create.nspk and build.ecom (pay them on their payment page), and sends nothing more.`
      : 'Callbacks: not checked (no --listen and --callback-url); the trades carry no callback_url.',
  );
  return `${lines.join('\n')}\n`;
}
