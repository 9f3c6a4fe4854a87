import type { MerchantDirectory } from '../merchants/fixtures.js';
import { isCredentialHeader, MASK, maskText } from './mask-secrets.js';
import { knownSecrets } from './record-callbacks.js';
import { type CallbackEntry, type ClockEntry, type Header, RECORDED_BODY_LIMIT, type RequestEntry, type SessionEntry, type SessionRecorder } from './session-recorder.js';

/** A recorded request as it is exported: every credential masked, bodies cut at RECORDED_BODY_LIMIT. */
export interface ResolvedRequest {
  readonly type: 'request';
  readonly seq: number;
  readonly wall: number;
  /** Sandbox time when it arrived, ISO 8601. */
  readonly clock: string;
  readonly method: string;
  readonly url: string;
  readonly requestHeaders: readonly Header[];
  readonly requestBody: string | undefined;
  /** The body's whole length in characters (more than requestBody's when cut). */
  readonly requestSize: number;
  readonly status: number;
  readonly responseHeaders: readonly Header[];
  readonly responseBody: string;
  readonly responseSize: number;
  readonly duration: number;
  readonly scenario: string | undefined;
  /** For a provider request: whether X-Auth / X-Token held the merchant's token or something else (a signature); both are masked. */
  readonly auth: 'token' | 'signature' | undefined;
}

export type ResolvedEntry = ResolvedRequest | CallbackEntry | ClockEntry;

/** The path and query of an absolute URL. */
function targetOf(url: string): string {
  const start = url.indexOf('/', url.indexOf('//') + 2);
  return start === -1 ? '/' : url.slice(start);
}

const cut = (text: string) => (text.length > RECORDED_BODY_LIMIT ? text.slice(0, RECORDED_BODY_LIMIT) : text);

/** What a request's X-Auth / X-Token held: the token of the merchant it names, or something else. */
function authOf(url: string, headers: readonly string[], body: string | undefined, merchants: MerchantDirectory): 'token' | 'signature' | undefined {
  const path = url.split('?')[0] ?? '';
  const at = path.indexOf('/api/v1/trades/');
  if (at === -1) return undefined;
  let sent: string | undefined;
  for (let i = 0; i + 1 < headers.length; i += 2) {
    const name = headers[i]?.toLowerCase();
    if (name === 'x-auth' || name === 'x-token') sent = headers[i + 1];
  }
  if (sent === undefined) return undefined;
  let id: string | undefined;
  if (body !== undefined) {
    try {
      const merchant = (JSON.parse(body) as { merchant?: unknown }).merchant;
      if (typeof merchant === 'string') id = merchant;
    } catch {}
  }
  id ??= path.slice(at + '/api/v1/trades/'.length).split('/')[0];
  const merchant = id === undefined ? undefined : merchants.get(id);
  return merchant !== undefined && merchant.token === sent ? 'token' : 'signature';
}

/** A request entry as exported: its lazy parts written, every credential masked. */
async function resolveRequest(entry: RequestEntry, known: readonly string[], merchants: MerchantDirectory): Promise<ResolvedRequest> {
  const url = typeof entry.url === 'string' ? entry.url : targetOf(entry.url.url);
  const admin = url.includes('/_sandbox/');
  const sent = entry.requestBody === undefined ? undefined : await entry.requestBody;
  const answer = typeof entry.responseBody === 'string' ? entry.responseBody : entry.responseBody();
  const requestHeaders: Header[] = [];
  const raw: string[] = [];
  if (typeof entry.requestHeaders === 'string') raw.push(...entry.requestHeaders.split('\n'));
  else entry.requestHeaders.headers.forEach((value, name) => void raw.push(name, value));
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i] as string;
    requestHeaders.push([name, isCredentialHeader(name) ? MASK : maskText(raw[i + 1] as string, known)]);
  }
  const responseHeaders: Header[] = [];
  entry.responseHeaders?.forEach((value, name) => void responseHeaders.push([name, isCredentialHeader(name) ? MASK : maskText(value, known)]));
  return {
    type: 'request',
    seq: entry.seq,
    wall: entry.wall,
    clock: new Date(entry.clock).toISOString(),
    method: entry.method,
    url: maskText(url, known),
    requestHeaders,
    requestBody: sent === undefined ? undefined : maskText(cut(sent), known, admin),
    requestSize: sent?.length ?? 0,
    status: entry.status,
    responseHeaders,
    responseBody: maskText(cut(answer), known, admin),
    responseSize: answer.length,
    duration: entry.duration,
    scenario: entry.scenario,
    auth: authOf(url, raw, sent, merchants),
  };
}

/**
 * The session's entries as they are exported, oldest first: requests with their lazy parts
 * written and every credential masked (the headers that carry one, whatever they hold; the
 * merchants' tokens and secrets wherever they stand, those the workspace had before a state import
 * included; in the admin API's bodies, every token, secret, signature and what a refused request
 * sent). Callback attempts and clock moves were recorded masked.
 */
export async function resolveEntries(sandbox: { session: SessionRecorder; merchants: MerchantDirectory }): Promise<ResolvedEntry[]> {
  const known = [...knownSecrets(sandbox.merchants), ...sandbox.session.remembered()];
  const entries: SessionEntry[] = sandbox.session.entries();
  const out: ResolvedEntry[] = [];
  for (const entry of entries) out.push(entry.type === 'request' ? await resolveRequest(entry, known, sandbox.merchants) : entry);
  return out;
}
