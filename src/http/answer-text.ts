/**
 * The text of answers the sandbox built from a string (the error envelopes of
 * src/http/render-error.ts), so that the session's recording (src/http/record-session.ts) takes
 * it from here instead of reading the answer and building it again. Kept by the answer's body
 * stream, which stays the same when Hono wraps the answer in a new Response (`c.res = ...`) and
 * is another one when anything replaces the body.
 */
const texts = new WeakMap<ReadableStream, string>();

/** A surrogate alone (with the `u` flag a pair is one code point): UTF-8 has no bytes for it, a reader gets U+FFFD. */
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

/** `res`, its body known to be `text`: a text that reads back the same from UTF-8 (well formed, no leading BOM, which a reader drops). */
export function withText(res: Response, text: string): Response {
  if (res.body !== null && !LONE_SURROGATE.test(text) && !text.startsWith('\uFEFF')) texts.set(res.body, text);
  return res;
}

/** The text `res` answers with when it is known and unread, else undefined (read it). */
export function knownText(res: Response): string | undefined {
  return res.body === null || res.bodyUsed ? undefined : texts.get(res.body);
}
