import type { CallbackDispatcher } from '../callbacks/callback-dispatcher.js';
import { type CallbackRequest, type CallbackResponse, CallbackSender, USER_AGENT } from '../callbacks/callback-sender.js';
import type { MerchantDirectory } from '../merchants/fixtures.js';
import type { Profile } from '../profile/profile-schema.js';
import { fingerprint, isCredentialHeader, MASK, maskText } from './mask-secrets.js';
import { type Header, RECORDED_BODY_LIMIT, type SessionRecorder } from './session-recorder.js';

/** What went on the wire for one callback request. */
interface Sent {
  readonly wall: number;
  readonly headers: Readonly<Record<string, string>>;
}

/** Sends kept for one URL and body, waiting for their attempt's log entry; a few at most. */
const KEPT_PER_BODY = 8;

/**
 * The callback sender of a recording sandbox: sends as CallbackSender does, and keeps the headers
 * of each request it sent until the dispatcher logs the attempt (recordCallbacks() takes them
 * then). The dispatcher makes the headers and logs the attempt; this sees what went on the wire.
 */
export class RecordingSender extends CallbackSender {
  readonly #recorder: SessionRecorder;
  readonly #sent = new Map<string, Sent[]>();

  constructor(recorder: SessionRecorder) {
    super();
    this.#recorder = recorder;
  }

  override async send(request: CallbackRequest): Promise<CallbackResponse> {
    if (!this.#recorder.enabled) return super.send(request);
    const wall = Date.now();
    const response = await super.send(request);
    // An attempt the sandbox stopped (a reset, a stop) is logged by no one: nothing to keep.
    if (response.aborted) return response;
    const key = `${request.url}\n${request.body}`;
    const list = this.#sent.get(key);
    const sent = { wall, headers: request.headers };
    if (list === undefined) this.#sent.set(key, [sent]);
    else {
      list.push(sent);
      if (list.length > KEPT_PER_BODY) list.shift();
    }
    return response;
  }

  /** The oldest request sent to `url` with `body` whose attempt is not recorded yet. */
  take(url: string, body: string): Sent | undefined {
    const key = `${url}\n${body}`;
    const list = this.#sent.get(key);
    const sent = list?.shift();
    if (list?.length === 0) this.#sent.delete(key);
    return sent;
  }

  override abortAll(): void {
    this.#sent.clear();
    super.abortAll();
  }
}

/** The merchants' tokens and secrets: what is masked wherever it stands. */
export function knownSecrets(merchants: MerchantDirectory): string[] {
  const known: string[] = [];
  for (const merchant of merchants.list()) known.push(merchant.token, merchant.secret);
  return known;
}

/**
 * Records every callback attempt the dispatcher logs: the event, the attempt's outcome, and what
 * went on the wire (RecordingSender): the headers in the order sent, the signature masked with its
 * SHA-256 kept, and the body's exact bytes.
 */
export function recordCallbacks(recorder: SessionRecorder, parts: { callbacks: CallbackDispatcher; sender: RecordingSender; merchants: MerchantDirectory; profile: () => Profile }): void {
  if (!recorder.enabled) return;
  parts.callbacks.on('attempt', (event, attempt) => {
    const kind = attempt.kind ?? 'delivery';
    const sent = kind === 'simulated' ? undefined : parts.sender.take(event.url, event.body);
    const known = knownSecrets(parts.merchants);
    const headers: Header[] = [];
    const signatures: Record<string, string> = {};
    if (sent !== undefined) {
      const all = { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(event.body)), 'User-Agent': USER_AGENT, ...sent.headers };
      for (const [name, value] of Object.entries(all)) {
        if (isCredentialHeader(name)) {
          signatures[name] = fingerprint(value);
          headers.push([name, MASK]);
        } else headers.push([name, maskText(value, known)]);
      }
    }
    recorder.record({
      type: 'callback',
      seq: 0,
      wall: sent?.wall ?? Date.now(),
      clock: attempt.at,
      event: event.id,
      trade: event.trade,
      merchant: event.merchant,
      state: event.state,
      replayOf: event.replay_of,
      attempt: attempt.attempt,
      kind,
      url: maskText(event.url, known),
      requestHeaders: headers,
      signatures,
      body: maskText(event.body.length > RECORDED_BODY_LIMIT ? event.body.slice(0, RECORDED_BODY_LIMIT) : event.body, known),
      bodySize: event.body.length,
      profile: recorder.profileLabel(parts.profile()),
      sent: sent !== undefined,
      status: attempt.status,
      response: maskText(attempt.response, known, true),
      duration: attempt.duration_ms,
      error: attempt.error,
      warning: attempt.warning,
    });
  });
}
