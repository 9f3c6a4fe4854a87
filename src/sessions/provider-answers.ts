import { toTrade, type TradeRecord, type TradeView } from '../trades/trade.js';

/**
 * The headers of every accepted provider answer as the routes set them (src/api/provider.ts), so
 * the recording need not read them from the answer: reading a Response's headers while answering
 * makes @hono/node-server build a Headers object and write the answer the slow way.
 */
export const ACCEPTED_HEADERS: Headers = new Headers({ 'content-type': 'application/json' });

/**
 * How to write again the text of a provider endpoint's accepted answer (201 of create and build,
 * 200 of a read) from the stored trade it was written from, when the session is exported: a store
 * never changes a row in place, so the row kept is the one the route answered with, and the answer
 * is JSON.stringify(toTrade(row, view, publicUrl)), as the routes write it (src/api/provider.ts;
 * the read's cached text, src/trades/trade-json.ts, is the same). So the session keeps what the
 * merchant got without reading the answer back on the busiest path. `view` (viewOf) says which
 * answer it was: a read's, a create's or a build's.
 */
export function acceptedAnswer(trade: TradeRecord, view: TradeView, publicUrl: string): () => string {
  return () => JSON.stringify(toTrade(trade, view, publicUrl));
}

/** Which answer of a trade a provider endpoint wrote: a read's, a create's or a build's. */
export const viewOf = (method: string, path: string): TradeView => (method === 'GET' ? 'get' : path.endsWith('/build') ? 'build' : 'create');
