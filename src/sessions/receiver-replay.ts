import { type CallbackSignature, callbackHeaders } from '../callbacks/callback-headers.js';
import type { Profile } from '../profile/profile-schema.js';
import { fingerprint, MASK } from './mask-secrets.js';
import type { SessionHar } from './session-har.js';

type HarEntry = SessionHar['log']['entries'][number];

/** One recorded callback attempt, ready to be sent again byte for byte. */
export interface CallbackReplay {
  /** Its place among the recording's entries (1-based), for messages. */
  readonly index: number;
  readonly event: string;
  readonly attempt: number;
  readonly kind: string;
  readonly url: string;
  /** The headers in the order recorded, the masked ones signed again. */
  readonly headers: ReadonlyArray<readonly [string, string]>;
  readonly body: string;
  /** Wall-clock time it was first sent (ms), for the gaps between attempts. */
  readonly sentAt: number;
  /** What the receiver answered then: its status (0: no answer) and whether it acknowledged the callback. */
  readonly recorded: { readonly status: number; readonly acknowledged: boolean };
}

export type ReceiverPlan = { ok: true; callbacks: CallbackReplay[] } | { ok: false; message: string };

/** Headers the receiver's new address decides, not the recording. */
const SET_BY_CONNECTION = new Set(['host', 'connection', 'transfer-encoding']);

/** Where a recorded callback goes: the receiver's own path kept under a bare origin, else the URL given. */
function target(recorded: string, receiver: URL): string {
  if (receiver.pathname !== '/' || receiver.search !== '') return receiver.href;
  const original = URL.canParse(recorded) ? new URL(recorded) : undefined;
  return new URL(`${original?.pathname ?? '/'}${original?.search ?? ''}`, receiver).href;
}

/**
 * The callback attempts of a recorded session that went on the wire, in order, each with its
 * masked signature made again with the merchant's secret (`secretOf`) under the profile it was
 * signed with (log._sandbox.profiles), and checked against the SHA-256 the recording kept: so what
 * is sent is byte for byte what was sent (body, signature, event id, attempt). Refused, with the
 * entry and what to pass, when a merchant's secret is unknown or does not give the recorded signature.
 */
export function planReceiverReplay(har: SessionHar, receiver: URL, secretOf: (merchant: string) => string | undefined): ReceiverPlan {
  const callbacks: CallbackReplay[] = [];
  const { profiles } = har.log._sandbox;
  for (const [i, entry] of har.log.entries.entries()) {
    const info = entry._sandbox;
    if (info.direction !== 'outbound' || !info.sent) continue;
    const where = `entry ${i + 1} (event ${info.event}, attempt ${info.attempt}${info.kind === 'delivery' ? '' : `, ${info.kind}`})`;
    const masked = entry.request.headers.filter((header) => header.value === MASK);
    let signed: Record<string, string> = {};
    if (masked.length > 0) {
      const secret = secretOf(info.merchant);
      if (secret === undefined) {
        return {
          ok: false,
          message: `The callbacks of merchant ${info.merchant} are signed with its secret, which this replay does not know (${where}). Pass --secret ${info.merchant}=<its secret> (or --fixtures with it).`,
        };
      }
      const profile = profiles[info.profile] as Profile | undefined;
      if (profile === undefined)
        return { ok: false, message: `${where} names the provider profile "${info.profile}", which log._sandbox.profiles does not hold: the file was changed. Export the session again.` };
      const made = signAgain(entry, profile, secret, info.kind === 'bad_signature' ? 'wrong' : 'valid');
      if (made === undefined) {
        return {
          ok: false,
          message: `The secret given for merchant ${info.merchant} does not give the signature recorded for ${where}: it is not the secret the sandbox signed with. Pass the merchant's secret with --secret ${info.merchant}=<secret>.`,
        };
      }
      signed = made;
    }
    const headers = entry.request.headers
      .filter((header) => !SET_BY_CONNECTION.has(header.name.toLowerCase()))
      .map(({ name, value }) => [name, value === MASK ? (signed[name] ?? value) : value] as const);
    callbacks.push({
      index: i + 1,
      event: info.event,
      attempt: info.attempt,
      kind: info.kind,
      url: target(entry.request.url, receiver),
      headers,
      body: entry.request.postData?.text ?? '',
      sentAt: Date.parse(entry.startedDateTime),
      recorded: { status: entry.response.status, acknowledged: info.error === undefined },
    });
  }
  return { ok: true, callbacks };
}

/**
 * The masked headers of a recorded attempt signed again, by name, when each gives the SHA-256
 * recorded; undefined when none of the times the signature may have been made at does. A
 * Standard Webhooks signature covers its webhook-timestamp, which the recording keeps; the
 * other schemes sign the body alone.
 */
function signAgain(entry: HarEntry, profile: Profile, secret: string, signature: CallbackSignature): Record<string, string> | undefined {
  const info = entry._sandbox;
  if (info.direction !== 'outbound') return undefined;
  const header = (name: string) => entry.request.headers.find((h) => h.name.toLowerCase() === name.toLowerCase())?.value;
  const timestamp = Number(header('webhook-timestamp'));
  const times = [Number.isFinite(timestamp) ? timestamp * 1000 : undefined, Date.parse(entry.startedDateTime), Date.parse(info.clock)].filter(
    (at): at is number => at !== undefined && Number.isFinite(at),
  );
  const workspace = header('X-Sandbox-Workspace');
  for (const at of times) {
    const made = callbackHeaders(
      profile,
      { secret, body: entry.request.postData?.text ?? '', eventId: info.event, attempt: info.attempt, at, ...(workspace !== undefined ? { workspace } : {}) },
      signature,
    );
    const byName = new Map(Object.entries(made).map(([name, value]) => [name.toLowerCase(), value]));
    const out: Record<string, string> = {};
    let all = true;
    for (const { name, value } of entry.request.headers) {
      if (value !== MASK) continue;
      const again = byName.get(name.toLowerCase());
      if (again === undefined || fingerprint(again) !== info.signatures[name]) {
        all = false;
        break;
      }
      out[name] = again;
    }
    if (all) return out;
  }
  return undefined;
}
