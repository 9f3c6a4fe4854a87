import { readFileSync } from 'node:fs';
import { STATUS_CODES } from 'node:http';
import { z } from 'zod';
import type { MerchantDirectory } from '../merchants/fixtures.js';
import type { Profile } from '../profile/profile-schema.js';
import { type ResolvedEntry, type ResolvedRequest, resolveEntries } from './resolve-entry.js';
import type { CallbackEntry, SessionRecorder } from './session-recorder.js';

/** What wrote a session HAR: this package, in `log.creator`. */
export const CREATOR: { readonly name: string; readonly version: string } = (({ name, version }) => ({ name, version }))(
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { name: string; version: string },
);

/** What `log._sandbox.format` says in every session HAR; a HAR without it is not a recorded session. */
export const SESSION_FORMAT = 'deposit-sandbox/session';

/** The layout of `_sandbox` in the HARs this version writes and reads; a larger one is a later version's. */
export const SESSION_VERSION = 1;

const headerSchema = z.object({ name: z.string(), value: z.string() });
const timingsSchema = z.object({ send: z.number(), wait: z.number(), receive: z.number() });

/** `_sandbox` of a request entry: an inbound request to the sandbox. */
const inboundSchema = z.object({
  direction: z.literal('inbound'),
  seq: z.number().int().meta({ description: 'Its place among every entry and clock move of the session.' }),
  clock: z.string().meta({ description: 'Sandbox time when it arrived.' }),
  scenario: z.string().optional().meta({ description: 'The scenario that took it.' }),
  auth: z.enum(['token', 'signature']).optional().meta({ description: "A provider request's X-Auth / X-Token (masked): the merchant's token, or something else (a signature)." }),
  truncated: z.boolean().optional().meta({ description: 'A body was longer than 64 KiB and is cut; its whole size is in bodySize or content.size.' }),
});

/** `_sandbox` of a callback entry: an attempt the sandbox sent (or a scenario simulated). */
const outboundSchema = z.object({
  direction: z.literal('outbound'),
  seq: z.number().int(),
  clock: z.string().meta({ description: 'Sandbox time of the attempt.' }),
  event: z.string().meta({ description: 'The event id (X-Sandbox-Event-Id).' }),
  trade: z.string(),
  merchant: z.string(),
  state: z.string(),
  attempt: z.number().int(),
  kind: z.enum(['delivery', 'simulated', 'bad_signature', 'duplicate']),
  sent: z.boolean().meta({ description: 'false: nothing went on the wire (a simulated failure, or nothing to sign or spoil).' }),
  profile: z.string().meta({ description: 'The provider profile it was signed under (log._sandbox.profiles holds it).' }),
  signatures: z.record(z.string(), z.string()).meta({ description: "SHA-256 (hex) of each masked header's value, by header name." }),
  replay_of: z.string().optional(),
  error: z.string().optional(),
  warning: z.string().optional(),
});

const entrySchema = z.object({
  startedDateTime: z.string(),
  time: z.number(),
  request: z.object({
    method: z.string(),
    url: z.string(),
    httpVersion: z.string(),
    cookies: z.array(z.never()),
    headers: z.array(headerSchema),
    queryString: z.array(headerSchema),
    postData: z.object({ mimeType: z.string(), text: z.string() }).optional(),
    headersSize: z.number().int(),
    bodySize: z.number().int(),
  }),
  response: z.object({
    status: z.number().int(),
    statusText: z.string(),
    httpVersion: z.string(),
    cookies: z.array(z.never()),
    headers: z.array(headerSchema),
    content: z.object({ size: z.number().int(), mimeType: z.string(), text: z.string() }),
    redirectURL: z.string(),
    headersSize: z.number().int(),
    bodySize: z.number().int(),
  }),
  cache: z.object({}),
  timings: timingsSchema,
  comment: z.string().optional(),
  _sandbox: z.union([inboundSchema, outboundSchema]),
});

/** A recorded session as HAR 1.2: the entries a browser's network panel opens, and what a replay needs in `_sandbox`. */
export const sessionHarSchema = z.object({
  log: z.object({
    version: z.literal('1.2'),
    creator: z.object({ name: z.string(), version: z.string() }),
    pages: z.array(z.never()),
    entries: z.array(entrySchema),
    comment: z.string(),
    _sandbox: z.object({
      format: z.literal(SESSION_FORMAT),
      version: z.number().int(),
      workspace: z.string(),
      started: z.string().meta({ description: 'When the recording started (the workspace was opened), wall clock.' }),
      clock: z.object({ mode: z.enum(['real', 'manual']), start: z.string().meta({ description: 'Sandbox time when the recording started.' }) }),
      seed: z.number().nullable().meta({ description: "The server's --seed, or null." }),
      dropped: z.number().int().meta({ description: 'Entries dropped at the front to keep within --record-limit: the session is whole when 0.' }),
      clock_moves: z.array(z.object({ seq: z.number().int(), at: z.string(), from: z.string(), to: z.string(), cause: z.string() })),
      profiles: z.record(z.string(), z.record(z.string(), z.unknown())).meta({ description: 'The provider profiles callbacks were signed under, resolved, by the name entries give them.' }),
    }),
  }),
});
export type SessionHar = z.infer<typeof sessionHarSchema>;
type HarEntry = z.infer<typeof entrySchema>;
type HarHeader = z.infer<typeof headerSchema>;

/** What a HAR export needs of a sandbox. */
export interface HarSource {
  readonly session: SessionRecorder;
  readonly merchants: MerchantDirectory;
  /** The sandbox's public URL, its prefix included (the recorded paths are made absolute with its origin). */
  readonly publicUrl: string;
}

const headers = (list: readonly (readonly [string, string])[]): HarHeader[] => list.map(([name, value]) => ({ name, value }));
const mimeOf = (list: readonly (readonly [string, string])[], fallback: string) => list.find(([name]) => name.toLowerCase() === 'content-type')?.[1] ?? fallback;
const bytes = (text: string) => Buffer.byteLength(text);

function queryString(url: URL): HarHeader[] {
  const out: HarHeader[] = [];
  url.searchParams.forEach((value, name) => void out.push({ name, value }));
  return out;
}

function requestEntry(entry: ResolvedRequest, origin: string): HarEntry {
  const url = new URL(entry.url, origin);
  const truncated = (entry.requestBody !== undefined && entry.requestSize > entry.requestBody.length) || entry.responseSize > entry.responseBody.length;
  const lost = entry.status === 0;
  return {
    startedDateTime: new Date(entry.wall).toISOString(),
    time: entry.duration,
    request: {
      method: entry.method,
      url: url.href,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: headers(entry.requestHeaders),
      queryString: queryString(url),
      ...(entry.requestBody !== undefined ? { postData: { mimeType: mimeOf(entry.requestHeaders, 'application/octet-stream'), text: entry.requestBody } } : {}),
      headersSize: -1,
      bodySize: entry.requestBody === undefined ? 0 : bytes(entry.requestBody),
    },
    response: {
      status: entry.status,
      statusText: lost ? '' : (STATUS_CODES[entry.status] ?? ''),
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: headers(entry.responseHeaders),
      content: { size: bytes(entry.responseBody), mimeType: mimeOf(entry.responseHeaders, 'text/plain'), text: entry.responseBody },
      redirectURL: entry.responseHeaders.find(([name]) => name.toLowerCase() === 'location')?.[1] ?? '',
      headersSize: -1,
      bodySize: lost ? -1 : bytes(entry.responseBody),
    },
    cache: {},
    timings: { send: 0, wait: entry.duration, receive: 0 },
    ...(lost ? { comment: 'No answer: the connection was closed on purpose (the lost-answer scenario) after the trade was saved.' } : {}),
    _sandbox: {
      direction: 'inbound',
      seq: entry.seq,
      clock: entry.clock,
      ...(entry.scenario !== undefined ? { scenario: entry.scenario } : {}),
      ...(entry.auth !== undefined ? { auth: entry.auth } : {}),
      ...(truncated ? { truncated: true } : {}),
    },
  };
}

function callbackEntry(entry: CallbackEntry): HarEntry {
  const comment = !entry.sent ? `Not sent: ${entry.error ?? 'nothing went on the wire'}` : entry.error;
  return {
    startedDateTime: new Date(entry.wall).toISOString(),
    time: entry.duration,
    request: {
      method: 'POST',
      url: entry.url,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: headers(entry.requestHeaders),
      queryString: URL.canParse(entry.url) ? queryString(new URL(entry.url)) : [],
      postData: { mimeType: 'application/json', text: entry.body },
      headersSize: -1,
      bodySize: bytes(entry.body),
    },
    response: {
      status: entry.status ?? 0,
      statusText: entry.status === null ? '' : (STATUS_CODES[entry.status] ?? ''),
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: [],
      content: { size: bytes(entry.response), mimeType: 'text/plain', text: entry.response },
      redirectURL: '',
      headersSize: -1,
      bodySize: entry.status === null ? -1 : bytes(entry.response),
    },
    cache: {},
    timings: { send: 0, wait: entry.duration, receive: 0 },
    ...(comment !== undefined ? { comment } : {}),
    _sandbox: {
      direction: 'outbound',
      seq: entry.seq,
      clock: entry.clock,
      event: entry.event,
      trade: entry.trade,
      merchant: entry.merchant,
      state: entry.state,
      attempt: entry.attempt,
      kind: entry.kind,
      sent: entry.sent,
      profile: entry.profile,
      signatures: entry.signatures,
      ...(entry.replayOf !== undefined ? { replay_of: entry.replayOf } : {}),
      ...(entry.error !== undefined ? { error: entry.error } : {}),
      ...(entry.warning !== undefined ? { warning: entry.warning } : {}),
    },
  };
}

/**
 * A workspace's recorded session as HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/):
 * one entry per request to the sandbox and per callback attempt, in the order they happened, each
 * marked in `_sandbox` (direction, sequence, sandbox time; for a callback its event, attempt and
 * the SHA-256 of its masked signature); clock moves, the seed and the profiles callbacks were
 * signed under in `log._sandbox`. Every credential is masked (./resolve-entry.ts).
 */
export async function sessionHar(source: HarSource, creator: { name: string; version: string }): Promise<SessionHar> {
  const { session } = source;
  const resolved: ResolvedEntry[] = await resolveEntries(source);
  const origin = new URL(source.publicUrl).origin;
  const entries: HarEntry[] = [];
  const clockMoves: SessionHar['log']['_sandbox']['clock_moves'] = [];
  for (const entry of resolved) {
    if (entry.type === 'request') entries.push(requestEntry(entry, origin));
    else if (entry.type === 'callback') entries.push(callbackEntry(entry));
    else clockMoves.push({ seq: entry.seq, at: new Date(entry.wall).toISOString(), from: entry.from, to: entry.to, cause: entry.cause });
  }
  const profiles: Record<string, Record<string, unknown>> = {};
  for (const [label, profile] of session.profiles()) profiles[label] = profile as Profile & Record<string, unknown>;
  const { info } = session;
  return {
    log: {
      version: '1.2',
      creator,
      pages: [],
      entries,
      comment: `The session of workspace ${info.workspace} recorded by ${creator.name} ${creator.version}: requests to the sandbox and the callbacks it sent, in order, credentials masked (***).${session.dropped > 0 ? ` Its first ${session.dropped} entries were dropped to keep within --record-limit.` : ''}`,
      _sandbox: {
        format: SESSION_FORMAT,
        version: SESSION_VERSION,
        workspace: info.workspace,
        started: info.started,
        clock: { mode: info.clockMode, start: info.startClock },
        seed: info.seed ?? null,
        dropped: session.dropped,
        clock_moves: clockMoves,
        profiles,
      },
    },
  };
}
