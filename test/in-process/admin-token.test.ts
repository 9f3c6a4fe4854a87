import { afterEach, describe, expect, it } from 'vitest';
import { errorOf, makeSandbox, p2pBody, type TestSandbox } from '../support.js';

const TOKEN = 's3cret-admin-token';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function sandbox(adminToken?: string): Promise<{ t: TestSandbox; trade: string; event: string; fresh: string }> {
  const t = await makeSandbox({ clock: 'manual', callbackRetries: '', ...(adminToken ? { adminToken } : {}) });
  cleanups.push(() => t.close());
  const created = await t.post('/api/v1/trades/deposit/create', p2pBody({ callback_url: 'http://127.0.0.1:1/refused' }));
  const { id } = (await created.json()) as { id: string };
  t.sandbox.lifecycle.transition(id, 'confirmed', 'admin');
  await t.sandbox.scheduler.advance(0);
  const fresh = (await (await t.post('/api/v1/trades/deposit/create', p2pBody())).json()) as { id: string };
  return { t, trade: id, event: t.sandbox.callbacks.forTrade(id)[0]!.id, fresh: fresh.id };
}

/** Every admin route but health, as [method, path, body]; `fresh` is a trade that may still move. */
function routes({ trade, event, fresh }: { trade: string; event: string; fresh: string }): Array<[string, string, unknown?]> {
  return [
    ['GET', '/_sandbox/trades'],
    ['GET', `/_sandbox/trades/${trade}`],
    ['POST', `/_sandbox/trades/${fresh}/transition`, { state: 'canceled' }],
    ['GET', '/_sandbox/callbacks'],
    ['GET', `/_sandbox/callbacks/${event}`],
    ['POST', `/_sandbox/callbacks/${event}/replay`],
    ['GET', '/_sandbox/clock'],
    ['POST', '/_sandbox/clock/advance', { by: '1m' }],
    ['GET', '/_sandbox/scenarios'],
    ['POST', '/_sandbox/reset'],
  ];
}

function call(t: TestSandbox, [method, path, body]: [string, string, unknown?], authorization?: string): Promise<Response> {
  return Promise.resolve(
    t.app.request(path, {
      method,
      headers: { ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}), ...(authorization ? { Authorization: authorization } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    }),
  );
}

describe('--admin-token', () => {
  it('refuses every admin route without the token: 401 admin_token_required saying how, and nothing changes', async () => {
    const setup = await sandbox(TOKEN);
    const { t } = setup;
    const before = JSON.stringify(t.sandbox.store.snapshot());
    for (const route of routes(setup)) {
      for (const authorization of [undefined, 'Bearer wrong-token', `Basic ${TOKEN}`, 'Bearer', `bearer ${TOKEN}x`]) {
        const res = await call(t, route, authorization);
        expect(res.status, `${route[0]} ${route[1]} with ${authorization}`).toBe(401);
        expect(res.headers.get('WWW-Authenticate')).toMatch(/^Bearer/);
        const error = await errorOf(res);
        expect(error).toMatchObject({ status: 401, code: 'admin_token_required', details: [{ field: 'Authorization' }] });
        expect(error.message).toContain('Authorization: Bearer <token>');
        expect(error.message).not.toContain(TOKEN);
      }
    }
    expect(JSON.stringify(t.sandbox.store.snapshot())).toBe(before);
  });

  it('serves every admin route with the right Bearer token', async () => {
    const setup = await sandbox(TOKEN);
    const { t } = setup;
    for (const route of routes(setup)) {
      const res = await call(t, route, `Bearer ${TOKEN}`);
      expect(res.status, `${route[0]} ${route[1]}`).toBeLessThan(300);
    }
    expect((await call(t, ['GET', '/_sandbox/trades'], `bearer   ${TOKEN}`)).status).toBe(200);
  });

  it('keeps health open: {"status":"ok"} alone without the token, the full body with it', async () => {
    const { t } = await sandbox(TOKEN);
    for (const authorization of [undefined, 'Bearer nope']) {
      const res = await call(t, ['GET', '/_sandbox/health'], authorization);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ status: 'ok' });
    }
    const full = await call(t, ['GET', '/_sandbox/health'], `Bearer ${TOKEN}`);
    expect(await full.json()).toMatchObject({ status: 'ok', trades: 2, auth: 'either', clock: { mode: 'manual' }, store: 'memory' });
  });

  it('does not guard the dashboard shell or the provider API', async () => {
    const { t, trade } = await sandbox(TOKEN);
    expect((await call(t, ['GET', '/_sandbox/'])).status).not.toBe(401);
    expect((await t.get(`/api/v1/trades/${t.sandbox.store.trades.get(trade)!.merchant}/${trade}`)).status).toBe(200);
  });

  it('leaves every admin route open when no token is set', async () => {
    const setup = await sandbox();
    const { t } = setup;
    for (const route of routes(setup)) {
      const res = await call(t, route, 'Bearer anything');
      expect(res.status, `${route[0]} ${route[1]}`).toBeLessThan(300);
    }
  });
});
