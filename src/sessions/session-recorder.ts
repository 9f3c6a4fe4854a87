import type { Profile } from '../profile/profile-schema.js';
import type { Attempt } from '../store/callback-records.js';
import type { TradeRecord } from '../trades/trade.js';
import { type AcceptedRequest, PackedRequests } from './packed-requests.js';
import { ACCEPTED_HEADERS, acceptedAnswer } from './provider-answers.js';

/** A header as recorded: its name as sent, its value (a credential masked). */
export type Header = readonly [name: string, value: string];

/** The most of one body a recording keeps (a request's, an answer's, a callback's); the rest is dropped and the size kept. */
export const RECORDED_BODY_LIMIT = 64 * 1024;

/**
 * One request to the sandbox (provider endpoints, admin API, payment page forms) with its answer,
 * as it was: kept raw, at the least cost to the request (src/http/record-session.ts), and masked
 * and written out when the session is exported (./resolve-entry.ts).
 */
export interface RequestEntry {
  readonly type: 'request';
  seq: number;
  /** Wall-clock time the request arrived (ms since the epoch). */
  readonly wall: number;
  /** Sandbox time when it arrived (ms since the epoch). */
  readonly clock: number;
  readonly method: string;
  /** The request target as sent (path and query, the workspace's prefix included), or the Request to read it from (app.request()). */
  readonly url: string | Request;
  /**
   * The headers as sent: names and values in turn, in order (Node's rawHeaders) joined by "\n",
   * which neither can hold; or the Request to read them from. One string: an array of them is a
   * dozen objects for the garbage collector to copy as long as the entry is kept.
   */
  readonly requestHeaders: string | Request;
  /** The body as sent (Hono's text of it, read by the route), or undefined when the route read none. */
  readonly requestBody: string | Promise<string> | undefined;
  readonly status: number;
  /** The answer's headers; undefined when no answer went out (the lost-answer scenario). */
  readonly responseHeaders: Headers | undefined;
  /** The answer's body, or how to write it again (a provider endpoint's accepted answer: ./provider-answers.ts). */
  readonly responseBody: string | (() => string);
  /** Wall-clock time the sandbox took to answer, in ms. */
  readonly duration: number;
  /** The scenario that took the request (the route's, else X-Sandbox-Scenario of the answer). */
  readonly scenario: string | undefined;
}

/** One callback attempt: what was sent, byte for byte but the masked signature, and what the receiver answered. */
export interface CallbackEntry {
  readonly type: 'callback';
  seq: number;
  /** Wall-clock time the attempt was sent (ms since the epoch). */
  readonly wall: number;
  /** Sandbox time of the attempt (the attempt log's `at`). */
  readonly clock: string;
  readonly event: string;
  readonly trade: string;
  readonly merchant: string;
  readonly state: string;
  readonly replayOf: string | undefined;
  readonly attempt: number;
  readonly kind: NonNullable<Attempt['kind']>;
  readonly url: string;
  /** The headers sent, in order, a signature masked; empty when nothing was sent (a simulated failure). */
  readonly requestHeaders: readonly Header[];
  /** SHA-256 (hex) of each masked header's value: a replay that signs again proves the same bytes. */
  readonly signatures: Readonly<Record<string, string>>;
  readonly body: string;
  readonly bodySize: number;
  /** The name of the provider profile the attempt was signed under (its resolved form: SessionRecorder.profiles). */
  readonly profile: string;
  readonly sent: boolean;
  readonly status: number | null;
  readonly response: string;
  readonly duration: number;
  readonly error: string | undefined;
  readonly warning: string | undefined;
}

/** The sandbox clock moved (an advance, a state document imported). */
export interface ClockEntry {
  readonly type: 'clock';
  seq: number;
  readonly wall: number;
  readonly from: string;
  readonly to: string;
  /** The request that moved it, e.g. `POST /w/qa/_sandbox/clock/advance`. */
  readonly cause: string;
}

export type SessionEntry = RequestEntry | CallbackEntry | ClockEntry;

/** What a recording says of the sandbox it was made in. */
export interface SessionInfo {
  readonly workspace: string;
  /** Wall-clock time the recording started (the workspace was opened). */
  readonly started: string;
  /** The workspace's sandbox time then. */
  readonly startClock: string;
  readonly clockMode: 'real' | 'manual';
  /** The server's --seed, if any: the workspace's ids and requisites come from it and the workspace's name. */
  readonly seed: number | undefined;
}

/** Size of an entry for the limit: its text plus a fixed share for the rest. */
const OVERHEAD = 256;
/** What an answer written again on demand counts for: about a trade's JSON, and the row it is kept with. */
const ANSWER_ESTIMATE = 768;
/** What a request body not read yet counts for: about a create's. */
const BODY_ESTIMATE = 256;
/** What an answer's headers count for. */
const HEADERS_ESTIMATE = 128;

function sizeOf(entry: SessionEntry): number {
  let size = OVERHEAD;
  if (entry.type === 'clock') return size + entry.cause.length;
  if (entry.type === 'request') {
    size += typeof entry.requestHeaders === 'string' ? entry.requestHeaders.length : HEADERS_ESTIMATE;
    const sent = typeof entry.requestBody === 'string' ? entry.requestBody.length : entry.requestBody === undefined ? 0 : BODY_ESTIMATE;
    const answer = typeof entry.responseBody === 'string' ? entry.responseBody.length : ANSWER_ESTIMATE;
    return size + HEADERS_ESTIMATE + (typeof entry.url === 'string' ? entry.url.length : HEADERS_ESTIMATE) + sent + answer;
  }
  for (const [name, value] of entry.requestHeaders) size += name.length + value.length;
  return size + entry.url.length + entry.body.length + entry.response.length + (entry.error?.length ?? 0);
}

/**
 * One workspace's session, recorded as it happens (docs/sessions.md): a ring of entries bounded
 * in bytes (`limit`, --record-limit), the oldest dropped first. Requests come in raw
 * (src/http/record-session.ts) and are masked when exported (./resolve-entry.ts); callback
 * attempts come in masked (./record-callbacks.ts). This keeps them in order and numbers them.
 * Disabled (--no-record), it keeps nothing and its callers skip their work.
 */
export class SessionRecorder {
  readonly enabled: boolean;
  readonly limit: number;
  readonly info: SessionInfo;
  /**
   * The entries, oldest first from #head: an entry, or for a packed request (recordAccepted) the
   * trade it answered with, its bytes in #packed at #offsets[i]. Dropped entries' slots are
   * emptied at once, so what they held is let go before the array is cut.
   */
  #entries: (SessionEntry | TradeRecord | undefined)[] = [];
  /** Per slot of #entries: where its request is packed, or -1 for an entry kept as it is. */
  #offsets = new Float64Array(1024);
  readonly #packed = new PackedRequests();
  /** The address the packed answers are written again with (the workspace's, when they were recorded). */
  #publicUrl = '';
  #sizes: number[] = [];
  /** Index of the oldest entry kept (entries before it were dropped). */
  #head = 0;
  #bytes = 0;
  #seq = 0;
  #dropped = 0;
  /** The profiles callbacks were signed under, by the label entries name them with. */
  readonly #profiles = new Map<string, Profile>();
  /** Tokens and secrets of merchants the workspace no longer has (a state import replaced them), still masked at export. */
  readonly #secrets = new Set<string>();

  constructor(options: { enabled: boolean; limit: number; info: SessionInfo }) {
    this.enabled = options.enabled;
    this.limit = options.limit;
    this.info = options.info;
  }

  /** Bytes held now (as counted for the limit). */
  get bytes(): number {
    return this.#bytes;
  }

  /** Entries dropped to keep within the limit, since the start. */
  get dropped(): number {
    return this.#dropped;
  }

  /** Keeps an entry (numbered in arrival order), dropping the oldest past the limit. */
  record(entry: SessionEntry): void {
    if (!this.enabled) return;
    entry.seq = ++this.#seq;
    this.#keep(entry, -1, sizeOf(entry));
  }

  /**
   * Keeps an accepted provider request (201 of a create or build, 200 of a read) packed as bytes
   * (./packed-requests.ts): its answer is written again from `trade` at export, with `publicUrl`.
   */
  recordAccepted(request: AcceptedRequest, publicUrl: string): void {
    if (!this.enabled) return;
    const seq = ++this.#seq;
    this.#publicUrl = publicUrl;
    const packed = this.#packed.pack(request, seq);
    if (packed !== undefined) {
      this.#keep(request.trade, packed.offset, OVERHEAD + packed.bytes);
      return;
    }
    const entry = this.#asEntry({ ...request, seq }, request.trade);
    this.#keep(entry, -1, sizeOf(entry));
  }

  #keep(slot: SessionEntry | TradeRecord, offset: number, size: number): void {
    const index = this.#entries.length;
    if (index === this.#offsets.length) {
      const grown = new Float64Array(index * 2);
      grown.set(this.#offsets);
      this.#offsets = grown;
    }
    this.#offsets[index] = offset;
    this.#entries.push(slot);
    this.#sizes.push(size);
    this.#bytes += size;
    while (this.#bytes > this.limit && this.#entries.length - this.#head > 1) {
      this.#bytes -= this.#sizes[this.#head] ?? 0;
      this.#entries[this.#head] = undefined;
      this.#head++;
      this.#dropped++;
    }
    // Let go of the dropped ones now and then, not at every drop: their slots, and the packed bytes before the oldest kept.
    if (this.#head > 1024 && this.#head * 2 > this.#entries.length) {
      const oldest = this.#offsets.subarray(this.#head, this.#entries.length).find((at) => at >= 0);
      this.#packed.release(oldest);
      this.#offsets.copyWithin(0, this.#head, this.#entries.length);
      this.#entries = this.#entries.slice(this.#head);
      this.#sizes = this.#sizes.slice(this.#head);
      this.#head = 0;
    }
  }

  /** A packed request as the entry it was recorded as. */
  #asEntry(request: Omit<AcceptedRequest, 'trade'> & { seq: number }, trade: TradeRecord): RequestEntry {
    return {
      type: 'request',
      seq: request.seq,
      wall: request.wall,
      clock: request.clock,
      method: request.method,
      url: request.url,
      requestHeaders: request.headers,
      requestBody: request.body,
      status: request.status,
      responseHeaders: ACCEPTED_HEADERS,
      responseBody: acceptedAnswer(trade, request.view, this.#publicUrl),
      duration: request.duration,
      scenario: undefined,
    };
  }

  /** The entries kept, oldest first. */
  entries(): SessionEntry[] {
    const entries: SessionEntry[] = [];
    for (let i = this.#head; i < this.#entries.length; i++) {
      const slot = this.#entries[i];
      const offset = this.#offsets[i] as number;
      if (offset >= 0) entries.push(this.#asEntry(this.#packed.unpack(offset), slot as TradeRecord));
      else entries.push(slot as SessionEntry);
    }
    return entries;
  }

  /** The label a callback entry names `profile` with: its name, or its name and a number for a second profile of that name. */
  profileLabel(profile: Profile): string {
    for (let n = 1; ; n++) {
      const label = n === 1 ? profile.name : `${profile.name}#${n}`;
      const seen = this.#profiles.get(label);
      if (seen === undefined) this.#profiles.set(label, profile);
      if (seen === undefined || seen === profile) return label;
    }
  }

  /** Keeps credentials to mask at export although their merchants are gone (called before a state import replaces them). */
  remember(secrets: Iterable<string>): void {
    if (this.enabled) for (const secret of secrets) this.#secrets.add(secret);
  }

  /** The credentials remembered (remember()), besides those of the merchants the workspace has now. */
  remembered(): Iterable<string> {
    return this.#secrets;
  }

  /** The profiles callback entries name, resolved. */
  profiles(): ReadonlyMap<string, Profile> {
    return this.#profiles;
  }
}
