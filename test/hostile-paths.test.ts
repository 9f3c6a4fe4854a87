/** Paths no client should send (bad percent-encodings) are refused as 4xx, never a 500, with or without a workspace prefix. */
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO, errorOf, makeSandbox, type TestSandbox } from './support.js';

let t: TestSandbox;
afterEach(async () => {
  await t?.close();
});

describe('hostile paths', () => {
  it('a malformed percent-escape in a trade path is a 4xx in the error envelope, in default and in a workspace', async () => {
    t = await makeSandbox();
    const paths = ['/api/v1/trades/%FF/abc', '/w/x/api/v1/trades/%FF/abc', `/api/v1/trades/%FF/${DEMO.id}`, '/api/v1/trades/%E0%A4%A/abc', '/w/x/_sandbox/trades/%FF', '/w/%FF/api/v1/trades/a/b'];
    for (const path of paths) {
      const res = await t.get(path);
      expect(res.status, path).toBeGreaterThanOrEqual(400);
      expect(res.status, path).toBeLessThan(500);
      expect((await errorOf(res)).code, path).not.toBe('internal_error');
    }
  });
});
