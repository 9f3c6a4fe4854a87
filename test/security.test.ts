/**
 * Security, in-process: the admin token on every admin route (found from the app's own
 * route table, so a new route is covered the day it is added), merchants kept apart,
 * secrets in no answer and no log line, and callbacks / redirects only to http(s).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { CallbackSender } from '../src/callbacks/callback-sender.js';
import { startReceiver } from './callbacks-receiver.js';
import { capturingLogger, DEMO, SECOND, errorOf, makeSandbox, p2pBody, signatureOf, type TestSandbox } from './support.js';

const ADMIN = 'admin-token-s3cret-9f2b';
const SECRETS = [DEMO.secret, SECOND.secret];
const CREDENTIALS = [...SECRETS, DEMO.token, SECOND.token, ADMIN];

const cleanups: Array<() => Promise<unknown> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function sandbox(options: Parameters<typeof makeSandbox>[0] = {}, settings: Parameters<typeof makeSandbox>[1] = {}): Promise<TestSandbox> {
  const t = await makeSandbox({ clock: 'manual', ...options }, settings);
  cleanups.push(() => t.close());
  return t;
}

/** Routes that hold no data and are open by design (contract §9). */
const OPEN = new Set(['GET /_sandbox', 'GET /_sandbox/', 'GET /_sandbox/health', 'GET /_sandbox/assets/dashboard.css', 'GET /_sandbox/assets/dashboard.js', 'GET /_sandbox/assets/workspaces.js']);

describe('--admin-token guards every admin route', () => {
  it('every route under /_sandbox but the open ones answers 401 without the token, and is served with it', async () => {
    const t = await sandbox({ adminToken: ADMIN, callbackRetries: '' });
    const trade = (await (await t.post('/api/v1/trades/deposit/create', p2pBody({ callback_url: 'http://127.0.0.1:1/cb' }))).json()) as { id: string };
    t.sandbox.lifecycle.transition(trade.id, 'confirmed', 'admin');
    await t.sandbox.scheduler.advance(0);
    const event = t.sandbox.callbacks.forTrade(trade.id)[0]!.id;
    const routes = [...new Set(t.app.routes.filter((r) => r.method !== 'ALL' && r.path.startsWith('/_sandbox')).map((r) => `${r.method} ${r.path}`))];
    const guarded = routes.filter((route) => !OPEN.has(route));
    expect(guarded.length, guarded.join(', ')).toBeGreaterThanOrEqual(11);
    expect(guarded).toContain('POST /_sandbox/check-callback');
    const request = (route: string, authorization?: string) => {
      const [method, pattern] = route.split(' ') as [string, string];
      const path = pattern.replace(':id', pattern.startsWith('/_sandbox/callbacks') ? event : trade.id);
      const headers: Record<string, string> = { ...(method === 'POST' ? { 'Content-Type': 'application/json' } : {}), ...(authorization ? { Authorization: authorization } : {}) };
      return t.app.request(path, { method, headers, ...(method === 'POST' ? { body: '{}' } : {}) });
    };
    const before = JSON.stringify(t.sandbox.store.snapshot());
    for (const route of guarded) {
      for (const authorization of [undefined, `Bearer ${ADMIN.slice(0, -1)}`, `Bearer ${ADMIN}x`, `Basic ${ADMIN}`, ADMIN, `Bearer ${DEMO.token}`]) {
        const res = await request(route, authorization);
        expect(res.status, `${route} with ${String(authorization)}`).toBe(401);
        const error = await errorOf(res);
        expect(error.code).toBe('admin_token_required');
        expect(JSON.stringify(error)).not.toContain(ADMIN);
      }
    }
    expect(JSON.stringify(t.sandbox.store.snapshot()), 'a refused request changed something').toBe(before);
    for (const route of guarded) expect((await request(route, `Bearer ${ADMIN}`)).status, route).not.toBe(401);
  });

  it('the open routes show no trade data without the token', async () => {
    const t = await sandbox({ adminToken: ADMIN });
    const trade = (await (await t.post('/api/v1/trades/deposit/create', p2pBody({ customer: 'visible-customer' }))).json()) as { id: string; order: string };
    for (const route of OPEN) {
      const res = await t.app.request(route.split(' ')[1]!);
      const text = await res.text();
      for (const secret of [trade.id, trade.order, 'visible-customer', ...CREDENTIALS]) expect(text, `${route} shows ${secret}`).not.toContain(secret);
    }
    expect(await (await t.app.request('/_sandbox/health')).json()).toEqual({ status: 'ok' });
  });
});

describe('merchants are kept apart', () => {
  /** A 404 with the ids it names replaced, so two answers can be compared. */
  const shapeOf = async (res: Response, ...ids: string[]) => {
    let text = JSON.stringify(await errorOf(res));
    for (const id of ids) text = text.replaceAll(id, '<id>');
    return { status: res.status, text };
  };

  it("get answers another merchant's trade exactly as a trade that does not exist", async () => {
    const t = await sandbox();
    const mine = (await (await t.post('/api/v1/trades/deposit/create', p2pBody())).json()) as { id: string };
    const nobody = '0e0b7a52-5f1c-4b7e-9d7c-3a1f2b4c5d6e';
    for (const credential of ['token', 'signature'] as const) {
      const ask = (id: string) =>
        t.get(`/api/v1/trades/${SECOND.id}/${id}`, { 'X-Token': credential === 'token' ? SECOND.token : signatureOf('get', { merchant: SECOND.id, uuid: id }, SECOND.secret) });
      const other = await shapeOf(await ask(mine.id), mine.id);
      const missing = await shapeOf(await ask(nobody), nobody);
      expect(other.status).toBe(404);
      expect(other).toEqual(missing);
      expect(await shapeOf(await ask(mine.id.toUpperCase()), mine.id.toUpperCase())).toEqual(missing);
    }
    // With the other merchant's token for the owner's path: the same 401 whether the trade exists or not.
    const wrong = (id: string) => t.get(`/api/v1/trades/${DEMO.id}/${id}`, { 'X-Token': SECOND.token });
    expect(await shapeOf(await wrong(mine.id), mine.id)).toEqual(await shapeOf(await wrong(nobody), nobody));
  });

  it("an order another merchant used is free, and a duplicate never names the other merchant's trade", async () => {
    const t = await sandbox();
    const order = `shared-${Date.now()}`;
    const first = (await (await t.post('/api/v1/trades/deposit/create', p2pBody({ order }))).json()) as { id: string };
    const second = await t.post('/api/v1/trades/deposit/create', p2pBody({ order, merchant: SECOND.id }), { 'X-Auth': SECOND.token });
    expect(second.status).toBe(201);
    const again = await t.post('/api/v1/trades/deposit/create', p2pBody({ order, merchant: SECOND.id }), { 'X-Auth': SECOND.token });
    expect(again.status).toBe(422);
    expect(JSON.stringify(await errorOf(again))).not.toContain(first.id);
  });
});

describe('secrets appear in no answer and no log line', () => {
  it('across every kind of refusal, in every auth mode', async () => {
    // Every line a sandbox writes goes through its logger (test/in-process/one-voice.test.ts): read that.
    const logger = capturingLogger();
    const receiver = await startReceiver((_q, res) => void res.writeHead(500).end('no'));
    cleanups.push(() => receiver.close());
    const answers: string[] = [];
    for (const auth of ['either', 'token', 'signature', 'off'] as const) {
      const t = await sandbox({ auth, adminToken: ADMIN, callbackRetries: '1s' }, { services: { logger } });
      const send = async (res: Promise<Response> | Response, sent: string[]) => {
        const r = await res;
        let text = await r.text();
        r.headers.forEach((value, name) => {
          text += `\n${name}: ${value}`;
        });
        for (const secret of CREDENTIALS) if (!sent.includes(secret)) expect(text, `${auth}: reveals ${secret}`).not.toContain(secret);
        for (const secret of SECRETS) expect(text, `${auth}: echoes a secret`).not.toContain(secret);
        answers.push(text);
      };
      const body = p2pBody({ callback_url: `${receiver.url}/cb` });
      for (const value of [
        undefined,
        '',
        'garbage',
        DEMO.token,
        SECOND.token,
        DEMO.secret,
        `${SECOND.secret}x`,
        signatureOf('create', body),
        signatureOf('create', body, SECOND.secret),
        '0'.repeat(64),
      ]) {
        await send(t.post('/api/v1/trades/deposit/create', body, value === undefined ? { 'X-Auth': '' } : { 'X-Auth': value }), value ? [value] : []);
        await send(t.get(`/api/v1/trades/${DEMO.id}/0e0b7a52-5f1c-4b7e-9d7c-3a1f2b4c5d6e`, value === undefined ? { 'X-Token': '' } : { 'X-Token': value }), value ? [value] : []);
        await send(t.post('/api/v1/trades/deposit/create', body, { 'X-Auth': '', 'X-Token': value ?? '' }), value ? [value] : []);
      }
      const trade = p2pBody({ callback_url: `${receiver.url}/cb` });
      const created = await t.post('/api/v1/trades/deposit/create', trade, { 'X-Auth': auth === 'token' ? DEMO.token : signatureOf('create', trade) });
      expect(created.status).toBe(201);
      const { id } = (await created.json()) as { id: string };
      for (const authorization of [undefined, 'Bearer wrong', `Bearer ${ADMIN}`]) {
        const headers: Record<string, string> = authorization ? { Authorization: authorization } : {};
        const sent = authorization ? [ADMIN] : [];
        await send(t.app.request('/_sandbox/health', { headers }), sent);
        await send(t.app.request('/_sandbox/trades', { headers }), sent);
        await send(t.app.request(`/_sandbox/trades/${id}`, { headers }), sent);
        await send(t.app.request('/_sandbox/callbacks', { headers }), sent);
        await send(t.app.request('/_sandbox/scenarios', { headers }), sent);
        await send(t.app.request(`/_sandbox/trades/${id}/transition`, { method: 'POST', headers: { ...headers, 'Content-Type': 'application/json' }, body: '{"state":"confirmed"}' }), sent);
        await send(t.app.request('/_sandbox/clock/advance', { method: 'POST', headers: { ...headers, 'Content-Type': 'application/json' }, body: '{"by":"1m"}' }), sent);
        await send(
          t.app.request('/_sandbox/check-callback', { method: 'POST', headers: { ...headers, 'Content-Type': 'application/json' }, body: JSON.stringify({ url: `${receiver.url}/check` }) }),
          sent,
        );
      }
      for (const path of [`/pay/${id}`, `/pay/${id}/result`, '/_sandbox/', '/_sandbox/assets/dashboard.js', '/assets/pay.js', '/openapi.json']) await send(t.app.request(path), []);
    }
    expect(answers.length).toBeGreaterThan(200);
    expect(receiver.received.length).toBeGreaterThan(0); // callbacks went out (and failed) meanwhile
    const lines = [...logger.infos, ...logger.warnings].join('\n');
    for (const secret of CREDENTIALS) expect(lines, `a log line holds ${secret}`).not.toContain(secret);
  });
});

describe('callbacks and redirects only to http(s)', () => {
  it('the sender never calls another scheme, whatever is stored', async () => {
    const sender = new CallbackSender();
    cleanups.push(() => sender.close());
    for (const url of ['file:///etc/passwd', 'data:text/plain,x', 'javascript:alert(1)', 'ftp://127.0.0.1/x', 'gopher://127.0.0.1:70/x', 'not a url']) {
      const result = await sender.send({ url, body: '{}', headers: {}, timeoutMs: 1_000 });
      expect(result, url).toMatchObject({ ok: false, status: null });
      expect(result.error, url).toMatch(/only calls http and https|not an absolute URL/);
    }
  });

  it('a tampered store record with a file: callback_url gets a logged refusal, not a request', async () => {
    const t = await sandbox({ callbackRetries: '' });
    const { id } = (await (await t.post('/api/v1/trades/deposit/create', p2pBody({ callback_url: 'http://127.0.0.1:1/cb' }))).json()) as { id: string };
    const record = t.sandbox.store.trades.get(id)!;
    t.sandbox.store.trades.put({ ...record, callback_url: 'file:///etc/passwd', return_url: 'javascript:alert(document.domain)' });
    t.sandbox.lifecycle.transition(id, 'confirmed', 'admin');
    await t.sandbox.scheduler.advance(0);
    const [event] = t.sandbox.callbacks.forTrade(id);
    expect(event?.status).toBe('failed');
    expect(event!.attempts[0]!.error).toMatch(/only calls http and https URLs; file: URLs are never called/);
  });

  it('the payment page never redirects to a stored return_url that is not http(s)', async () => {
    const t = await sandbox();
    for (const url of ['javascript:alert(1)', 'data:text/html,x', '//evil.example/x', 'file:///etc/passwd', ' https://evil.example']) {
      const { id } = (await (await t.post('/api/v1/trades/deposit/create', p2pBody({ return_url: 'https://shop.example/thanks' }))).json()) as { id: string };
      t.sandbox.store.trades.put({ ...t.sandbox.store.trades.get(id)!, return_url: url });
      const res = await t.app.request(`/pay/${id}/pay`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: '' });
      expect(res.status).toBe(303);
      expect(res.headers.get('Location'), url).toBe(`/pay/${id}/result`);
      const page = await (await t.app.request(`/pay/${id}/result`)).text();
      expect(page).not.toContain(url.trim());
    }
    const ok = (await (await t.post('/api/v1/trades/deposit/create', p2pBody({ return_url: 'https://shop.example/thanks?x=1' }))).json()) as { id: string };
    const paid = await t.app.request(`/pay/${ok.id}/pay`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: '' });
    expect(paid.headers.get('Location')).toBe('https://shop.example/thanks?x=1');
  });
});
