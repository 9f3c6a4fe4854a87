import { describe, expect, it } from 'vitest';
import { knownText, withText } from './answer-text.js';

describe('the known text of an answer', () => {
  it('is the text it was built from, also once the answer is wrapped in a new Response (Hono does, c.res = ...)', async () => {
    const res = withText(new Response('{"error":{}}', { status: 401 }), '{"error":{}}');
    expect(knownText(res)).toBe('{"error":{}}');
    const wrapped = new Response(res.body, res);
    expect(knownText(wrapped)).toBe('{"error":{}}');
    expect(await wrapped.text()).toBe('{"error":{}}');
  });

  it('is unknown once the body was read, for another body, and for a text that would not read back the same', async () => {
    const read = withText(new Response('{}'), '{}');
    await read.text();
    expect(knownText(read)).toBeUndefined();
    expect(knownText(new Response('{}'))).toBeUndefined();
    // A lone surrogate becomes U+FFFD in UTF-8, and a reader drops a leading BOM.
    expect(knownText(withText(new Response('"a\ud800"'), '"a\ud800"'))).toBeUndefined();
    expect(knownText(withText(new Response('\ufeff{}'), '\ufeff{}'))).toBeUndefined();
    expect(knownText(withText(new Response('"a\ud83d\udca9"'), '"a\ud83d\udca9"'))).toBe('"a\ud83d\udca9"');
  });
});
