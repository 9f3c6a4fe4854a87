import type { HttpBindings } from '@hono/node-server';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import type { Context } from 'hono';

/** The request variable set to true when the answer of a saved create was lost on purpose. */
export const ANSWER_LOST = 'answerLost';

/**
 * Ends a request with no HTTP answer at all: the connection is closed (the `lost-answer`
 * scenario, after the trade was saved). Served by @hono/node-server, the request's socket is
 * destroyed and the handler returns the server's public "already sent" response, so nothing
 * more is written. Without a socket (`app.request()` in tests), the answer is a network error
 * (`Response.error()`), the nearest a fetch-style caller gets to "no answer".
 */
export function loseAnswer(c: Context): Response {
  // The trade was saved: what counts creates (src/report/count-creates.ts) reads this instead of a 201.
  c.set(ANSWER_LOST as never, true as never);
  const incoming = (c.env as Partial<HttpBindings> | undefined)?.incoming;
  if (!incoming) return Response.error();
  incoming.socket.destroy();
  // A fresh copy: middleware may add headers to the response object, which must not leak into the shared one.
  return new Response(null, { headers: RESPONSE_ALREADY_SENT.headers });
}
