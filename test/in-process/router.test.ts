import { RegExpRouter } from 'hono/router/reg-exp-router';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DEMO, makeSandbox, p2pBody, type TestSandbox } from '../support.js';

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

it('two sandboxes of one process answer each with its own data, at / and under a workspace (their apps take the same route table)', async () => {
  const other = await makeSandbox({ adminToken: 'other-admin-token' });
  try {
    for (const base of ['', '/w/shared']) {
      const created = await t.post(`${base}/api/v1/trades/deposit/create`, p2pBody());
      expect(created.status).toBe(201);
      const { id } = (await created.json()) as { id: string };
      expect((await t.get(`${base}/api/v1/trades/${DEMO.id}/${id}`)).status).toBe(200);
      expect((await other.get(`${base}/api/v1/trades/${DEMO.id}/${id}`)).status).toBe(404);
    }
    // Each app keeps its own server's settings: only the other one asks for an admin token.
    expect((await t.app.request('/_sandbox/trades')).status).toBe(200);
    expect((await other.app.request('/_sandbox/trades')).status).toBe(401);
    expect((await other.app.request('/_sandbox/trades', { headers: { Authorization: 'Bearer other-admin-token' } })).status).toBe(200);
  } finally {
    await other.close();
  }
});
