import type { Store } from '../store/store.js';
import { findTrade } from '../trades/service.js';
import { toTrade, type TradeView } from '../trades/trade.js';

/** A provider endpoint's accepted answer, as a request names it. */
export interface ProviderRequest {
  readonly method: string;
  /** The path after the workspace's prefix. */
  readonly path: string;
  readonly status: number;
  /** The parsed JSON body of a create or build. */
  readonly body: Record<string, unknown> | undefined;
}

/**
 * The headers of every accepted provider answer as the routes set them (src/api/provider.ts), so
 * the recording need not read them from the answer: reading a Response's headers while answering
 * makes @hono/node-server build a Headers object and write the answer the slow way.
 */
export const ACCEPTED_HEADERS: Headers = new Headers({ 'content-type': 'application/json' });

const CREATE = /^\/api\/v1\/trades\/deposit\/(create|build)$/;
const GET = /^\/api\/v1\/trades\/([^/]+)\/([^/]+)$/;

/**
 * The text of a provider endpoint's accepted answer (201 of create and build, 200 of a read),
 * written again when it is asked for, from the stored trade it was written from: a store never
 * changes a row in place, so the row kept is the one the route answered with, and the answer is
 * JSON.stringify(toTrade(row, view, publicUrl)), as the routes write it (src/api/provider.ts; the
 * read's cached text, src/trades/trade-json.ts, is the same). So the session keeps what the
 * merchant got without reading the answer back on the busiest path. Undefined for any other
 * answer, which the recording reads as it went out.
 */
export function providerAnswer(store: Store, publicUrl: string, request: ProviderRequest): (() => string) | undefined {
  if (request.method === 'POST' && request.status === 201) {
    const view = CREATE.exec(request.path)?.[1] as TradeView | undefined;
    const merchant = request.body?.['merchant'];
    const order = request.body?.['order'];
    if (view === undefined || typeof merchant !== 'string' || typeof order !== 'string') return undefined;
    const row = store.trades.findUnique(merchant.toLowerCase(), order);
    return row === undefined ? undefined : () => JSON.stringify(toTrade(row, view, publicUrl));
  }
  if (request.method === 'GET' && request.status === 200) {
    const match = GET.exec(request.path);
    const row = match?.[1] !== undefined && match[2] !== undefined ? findTrade(store, match[1], match[2]) : undefined;
    return row === undefined ? undefined : () => JSON.stringify(toTrade(row, 'get', publicUrl));
  }
  return undefined;
}
