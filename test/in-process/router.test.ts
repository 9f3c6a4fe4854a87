import { RegExpRouter } from 'hono/router/reg-exp-router';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeSandbox, type TestSandbox } from '../support.js';

// Hono's default router uses its RegExpRouter (one regular expression for every route) unless a
// route pattern is one it cannot take; then every request of the app goes through the
// TrieRouter, which made a create cost about 15% more. A new route must keep the set RegExpRouter's.

let t: TestSandbox;
beforeAll(async () => {
  t = await makeSandbox();
});
afterAll(() => t.close());

it("every route of the app is one Hono's RegExpRouter takes", () => {
  const router = new RegExpRouter<number>();
  const refused: string[] = [];
  for (const [index, route] of t.app.routes.entries()) {
    try {
      router.add(route.method, route.path, index);
    } catch {
      refused.push(`${route.method} ${route.path}`);
    }
  }
  expect(refused).toEqual([]);
  expect(() => router.match('GET', '/api/v1/trades/m/u')).not.toThrow();
});
