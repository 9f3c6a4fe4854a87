import type { TradeRecord, TradeView } from '../trades/trade.js';

/**
 * An accepted provider request as the recording packs it (./session-recorder.ts, recordAccepted):
 * the busiest entry of a session, a create or read answered 201 or 200 over a socket.
 */
export interface AcceptedRequest {
  readonly wall: number;
  readonly clock: number;
  readonly duration: number;
  readonly method: 'GET' | 'POST';
  readonly status: number;
  readonly view: TradeView;
  /** The request target as sent. */
  readonly url: string;
  /** Node's rawHeaders joined by "\n". */
  readonly headers: string;
  /** The body text the route read, or undefined (a read). */
  readonly body: string | undefined;
  /** The stored trade the route answered with. */
  readonly trade: TradeRecord;
}

/** What a packed request holds once read back: the trade is kept beside the bytes, not in them. */
export type UnpackedRequest = Omit<AcceptedRequest, 'trade'> & { readonly seq: number };

/** Bytes of a chunk at most: records are written into chunks of up to this size, and a chunk is let go whole. */
const CHUNK = 1 << 20;
/**
 * The room a chunk starts with; it doubles as records need it, up to CHUNK. Every workspace
 * records its own session, so a server with thousands of workspaces would otherwise hold (and
 * zero, and make the collector count) a whole chunk for each one's first few requests.
 */
const FIRST_ROOM = 1 << 16;
/** The fixed part of a record: wall, clock, duration (f64), seq (u32), status (u16), method, view (u8), and the three lengths (u32). */
const FIXED = 44;
/** The length written for a body that is undefined. */
const NO_BODY = 0xffffffff;
const VIEWS: readonly TradeView[] = ['create', 'build', 'get'];

interface Chunk {
  readonly bytes: Uint8Array;
  readonly view: DataView;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * The bytes of packed requests, in chunks outside the JavaScript heap. A request kept as objects
 * (its strings, its entry) outlives the young generation and is copied twice by the garbage
 * collector, then dies in the old one: under a steady load of creates that cost more than the
 * recording itself. Packed, a request leaves nothing behind for the collector but its trade,
 * which the store keeps anyway. Records are addressed by their offset from the first byte ever
 * written; chunks before the oldest record kept are let go (`release`).
 */
export class PackedRequests {
  readonly #chunks = new Map<number, Chunk>();
  /** The chunk being written, and where in it. */
  #current = -1;
  #position = CHUNK;

  /**
   * Packs a request and answers its offset and its size in bytes, or undefined when it does not
   * fit in a chunk (its body near the recorded limit): such a request is kept as objects.
   */
  pack(request: AcceptedRequest, seq: number): { offset: number; bytes: number } | undefined {
    const most = FIXED + 3 * (request.url.length + request.headers.length + (request.body?.length ?? 0));
    if (most > CHUNK) return undefined;
    if (this.#position + most > CHUNK) {
      this.#current++;
      this.#position = 0;
    }
    const start = this.#position;
    const { bytes, view } = this.#room(start + most);
    view.setFloat64(start, request.wall, true);
    view.setFloat64(start + 8, request.clock, true);
    view.setFloat64(start + 16, request.duration, true);
    view.setUint32(start + 24, seq, true);
    view.setUint16(start + 28, request.status, true);
    bytes[start + 30] = request.method === 'GET' ? 0 : 1;
    bytes[start + 31] = VIEWS.indexOf(request.view);
    let at = start + FIXED;
    const url = encoder.encodeInto(request.url, bytes.subarray(at)).written;
    at += url;
    const headers = encoder.encodeInto(request.headers, bytes.subarray(at)).written;
    at += headers;
    const body = request.body === undefined ? 0 : encoder.encodeInto(request.body, bytes.subarray(at)).written;
    at += body;
    view.setUint32(start + 32, url, true);
    view.setUint32(start + 36, headers, true);
    view.setUint32(start + 40, request.body === undefined ? NO_BODY : body, true);
    this.#position = at;
    return { offset: this.#current * CHUNK + start, bytes: at - start };
  }

  /**
   * The chunk being written, with room for `end` bytes (at most CHUNK): made with FIRST_ROOM or
   * more, or copied into one twice as large (or larger) as it fills. Offsets stay counted in
   * whole chunks, so a record's offset does not change when its chunk grows.
   */
  #room(end: number): Chunk {
    const chunk = this.#chunks.get(this.#current);
    if (chunk !== undefined && chunk.bytes.length >= end) return chunk;
    let size = chunk === undefined ? FIRST_ROOM : chunk.bytes.length * 2;
    while (size < end) size *= 2;
    const bytes = new Uint8Array(Math.min(size, CHUNK));
    if (chunk !== undefined) bytes.set(chunk.bytes.subarray(0, this.#position));
    const grown = { bytes, view: new DataView(bytes.buffer) };
    this.#chunks.set(this.#current, grown);
    return grown;
  }

  /** The request packed at `offset`. */
  unpack(offset: number): UnpackedRequest {
    const chunk = this.#chunks.get(Math.floor(offset / CHUNK));
    if (chunk === undefined) throw new Error(`no packed request at ${offset}: its chunk was let go`);
    const { bytes, view } = chunk;
    const start = offset % CHUNK;
    const urlBytes = view.getUint32(start + 32, true);
    const headerBytes = view.getUint32(start + 36, true);
    const bodyBytes = view.getUint32(start + 40, true);
    let at = start + FIXED;
    const text = (length: number) => {
      const value = decoder.decode(bytes.subarray(at, at + length));
      at += length;
      return value;
    };
    const url = text(urlBytes);
    const headers = text(headerBytes);
    const body = bodyBytes === NO_BODY ? undefined : text(bodyBytes);
    return {
      wall: view.getFloat64(start, true),
      clock: view.getFloat64(start + 8, true),
      duration: view.getFloat64(start + 16, true),
      seq: view.getUint32(start + 24, true),
      status: view.getUint16(start + 28, true),
      method: bytes[start + 30] === 0 ? 'GET' : 'POST',
      view: VIEWS[bytes[start + 31] as number] as TradeView,
      url,
      headers,
      body,
    };
  }

  /** Lets go of every chunk before the one holding `offset` (the oldest record kept), or of all. */
  release(offset: number | undefined): void {
    const keep = offset === undefined ? this.#current + 1 : Math.floor(offset / CHUNK);
    for (const index of this.#chunks.keys()) if (index < keep && index !== this.#current) this.#chunks.delete(index);
  }
}
