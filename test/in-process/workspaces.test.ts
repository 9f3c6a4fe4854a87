/**
 * Workspaces (/w/<name>) through the app, with app.request(): isolation of trades, clock,
 * reset, scenarios and merchants; names; the limit; the pages under the prefix.
 */
import { createHmac } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { capturingLogger, DEMO, errorOf, makeSandbox, p2pBody, type TestSandbox } from '../support.js';

let t: TestSandbox;
afterEach(async () => {
  await t?.close();
});

const json = async <T = Record<string, unknown>>(res: Response | Promise<Response>): Promise<T> => (await res).json() as Promise<T>;
const admin = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
  t.app.request(path, { method, headers: { 'Content-Type': 'application/json', ...headers }, ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }) });

describe('isolation', () => {
  it('the same order in two workspaces: two trades, each a 404 in the other and in default', async () => {
    t = await makeSandbox({ publicUrl: 'http://sandbox.test:4242' });
    const a = await t.post('/w/alpha/api/v1/trades/deposit/create', p2pBody({ order: 'o-1' }));
    const b = await t.post('/w/beta/api/v1/trades/deposit/create', p2pBody({ order: 'o-1' }));
    expect([a.status, b.status]).toEqual([201, 201]);
    const ta = await json<{ id: string; payment_data: { url: string } }>(a);
    const tb = await json<{ id: string }>(b);
    expect(ta.payment_data.url).toBe(`http://sandbox.test:4242/w/alpha/pay/${ta.id}`);
    // Per workspace, order is still unique.
    expect((await errorOf(await t.post('/w/alpha/api/v1/trades/deposit/create', p2pBody({ order: 'o-1' })))).code).toBe('duplicate_order');
    // Default knows neither; each workspace knows only its own.
    expect((await t.post('/api/v1/trades/deposit/create', p2pBody({ order: 'o-1' }))).status).toBe(201);
    expect((await t.get(`/w/beta/api/v1/trades/${DEMO.id}/${ta.id}`)).status).toBe(404);
    expect((await t.get(`/api/v1/trades/${DEMO.id}/${ta.id}`)).status).toBe(404);
    expect((await t.get(`/w/alpha/api/v1/trades/${DEMO.id}/${ta.id}`)).status).toBe(200);
    expect((await t.app.request(`/w/alpha/_sandbox/trades/${tb.id}`)).status).toBe(404);
    expect((await t.app.request(`/w/beta/pay/${ta.id}`)).status).toBe(404);
    const listed = await json<{ trades: Array<{ order: string }> }>(t.app.request('/w/alpha/_sandbox/trades'));
    expect(listed.trades.map((trade) => trade.order)).toEqual(['o-1']);
  });

  it('/w/default is the unprefixed sandbox', async () => {
    t = await makeSandbox();
    const created = await json<{ id: string }>(t.post('/api/v1/trades/deposit/create', p2pBody()));
    expect((await t.get(`/w/default/api/v1/trades/${DEMO.id}/${created.id}`)).status).toBe(200);
    const summary = await json<{ workspaces: Array<{ name: string; trades: number }> }>(t.app.request('/_sandbox/workspaces'));
    expect(summary.workspaces).toEqual([expect.objectContaining({ name: 'default', trades: 1 })]);
  });

  it('each workspace has its own manual clock and pending steps; an advance moves one', async () => {
    t = await makeSandbox({ clock: 'manual' });
    await t.post('/w/a/api/v1/trades/deposit/create', p2pBody({ order: 'sbx-confirm-1' }));
    await t.post('/w/b/api/v1/trades/deposit/create', p2pBody({ order: 'sbx-confirm-1' }));
    const before = await json<{ now: string }>(t.app.request('/w/b/_sandbox/clock'));
    const advanced = await json<{ ran: number }>(admin('POST', '/w/a/_sandbox/clock/advance', { by: '1h' }));
    expect(advanced.ran).toBe(1);
    const a = await json<{ now: string; pending: number }>(t.app.request('/w/a/_sandbox/clock'));
    const b = await json<{ now: string; pending: number; mode: string }>(t.app.request('/w/b/_sandbox/clock'));
    expect(b).toMatchObject({ mode: 'manual', now: before.now, pending: 1 });
    expect(Date.parse(a.now) - Date.parse(before.now)).toBeGreaterThanOrEqual(3_600_000 - 1000);
    expect(a.pending).toBe(0);
    const trades = await json<{ trades: Array<{ state: string }> }>(t.app.request('/w/b/_sandbox/trades'));
    expect(trades.trades.map((trade) => trade.state)).toEqual(['created']);
  });

  it('reset of one workspace leaves the others and default alone', async () => {
    t = await makeSandbox();
    await t.post('/api/v1/trades/deposit/create', p2pBody());
    await t.post('/w/a/api/v1/trades/deposit/create', p2pBody());
    await t.post('/w/b/api/v1/trades/deposit/create', p2pBody());
    const reset = await json<{ removed: { trades: number } }>(admin('POST', '/w/a/_sandbox/reset'));
    expect(reset.removed.trades).toBe(1);
    const list = await json<{ workspaces: Array<{ name: string; trades: number }> }>(t.app.request('/_sandbox/workspaces'));
    expect(list.workspaces.map((w) => [w.name, w.trades])).toEqual([
      ['default', 1],
      ['a', 0],
      ['b', 1],
    ]);
  });
});

describe('scenarios of one workspace', () => {
  const YAML = (state: string) =>
    `scenarios:\n  - name: outcome\n    description: Ends ws- orders one way.\n    match:\n      order: "^ws-"\n    timeline:\n      - after: 1s\n        state: ${state}\n`;

  it('PUT adds scenarios to one workspace, in front of the shared ones; two workspaces may use one name', async () => {
    t = await makeSandbox({ clock: 'manual' });
    expect((await admin('PUT', '/w/a/_sandbox/scenarios', YAML('confirmed'))).status).toBe(200);
    const put = await json<{ added: string[]; scenarios: Array<{ name: string }> }>(admin('PUT', '/w/b/_sandbox/scenarios', YAML('canceled')));
    expect(put.added).toEqual(['outcome']);
    expect(put.scenarios[0]?.name).toBe('outcome');
    for (const name of ['a', 'b', 'c']) await t.post(`/w/${name}/api/v1/trades/deposit/create`, p2pBody({ order: 'ws-1' }));
    for (const name of ['a', 'b', 'c']) await admin('POST', `/w/${name}/_sandbox/clock/advance`, { by: '5s' });
    const states = await Promise.all(['a', 'b', 'c'].map(async (name) => (await json<{ trades: Array<{ state: string }> }>(t.app.request(`/w/${name}/_sandbox/trades`))).trades[0]?.state));
    expect(states).toEqual(['confirmed', 'canceled', 'created']);
    // Default has no "outcome"; a workspace's X-Sandbox-Scenario sees its own.
    const unknown = await t.post('/api/v1/trades/deposit/create', p2pBody(), { 'X-Sandbox-Scenario': 'outcome' });
    expect((await errorOf(unknown)).code).toBe('unknown_scenario');
    expect((await t.post('/w/a/api/v1/trades/deposit/create', p2pBody(), { 'X-Sandbox-Scenario': 'outcome' })).status).toBe(201);
    // DELETE takes them away again.
    const cleared = await json<{ scenarios: Array<{ name: string }> }>(admin('DELETE', '/w/a/_sandbox/scenarios'));
    expect(cleared.scenarios.map((s) => s.name)).not.toContain('outcome');
  });

  it('refuses a broken upload with the messages of a broken file (line and field), and keeps what was there', async () => {
    t = await makeSandbox();
    await admin('PUT', '/w/a/_sandbox/scenarios', YAML('confirmed'));
    const bad = await admin('PUT', '/w/a/_sandbox/scenarios', 'scenarios:\n  - name: x\n    timeline:\n      - after: soon\n        state: confirmed\n');
    expect(bad.status).toBe(422);
    const error = await errorOf(bad);
    expect(error.code).toBe('invalid_scenarios');
    expect(error.message).toContain('PUT /w/a/_sandbox/scenarios:');
    expect(error.message).toMatch(/after/);
    const clash = await errorOf(await admin('PUT', '/w/a/_sandbox/scenarios', 'scenarios:\n  - name: confirm\n    description: Clashes.\n    match:\n      order: "^x"\n'));
    expect(clash.message).toMatch(/repeats the name "confirm" of the scenario at .*10-outcomes\.yaml/);
    const listed = await json<{ scenarios: Array<{ name: string }> }>(t.app.request('/w/a/_sandbox/scenarios'));
    expect(listed.scenarios[0]?.name).toBe('outcome');
  });
});

describe('merchants of one workspace', () => {
  it('POST adds a merchant to one workspace; its token and secret are answered once', async () => {
    t = await makeSandbox();
    const res = await admin('POST', '/w/a/_sandbox/merchants', { name: 'Worker shop' });
    expect(res.status).toBe(201);
    const { merchant } = await json<{ merchant: { id: string; token: string; secret: string; name: string } }>(res);
    expect(merchant.name).toBe('Worker shop');
    const body = p2pBody({ merchant: merchant.id });
    expect((await t.post('/w/a/api/v1/trades/deposit/create', body, { 'X-Auth': merchant.token })).status).toBe(201);
    expect((await t.post('/w/b/api/v1/trades/deposit/create', body, { 'X-Auth': merchant.token })).status).toBe(401);
    expect((await t.post('/api/v1/trades/deposit/create', body, { 'X-Auth': merchant.token })).status).toBe(401);
    // The fixtures' merchants are everywhere.
    expect((await t.post('/w/b/api/v1/trades/deposit/create', p2pBody())).status).toBe(201);
    const listed = await json<{ merchants: Array<Record<string, unknown>> }>(t.app.request('/w/a/_sandbox/merchants'));
    expect(listed.merchants.find((m) => m['id'] === merchant.id)).toEqual({ id: merchant.id, name: 'Worker shop', rate: 92.5, from: 'workspace' });
    expect(JSON.stringify(listed)).not.toContain(merchant.secret);
    const signed = await json<{ signature: string }>(admin('POST', `/w/a/_sandbox/merchants/${merchant.id}/sign`, { string_to_sign: 'a::b' }));
    expect(signed.signature).toBe(createHmac('sha256', merchant.secret).update('a::b').digest('hex'));
    expect((await errorOf(await admin('POST', '/w/a/_sandbox/merchants', { id: merchant.id }))).code).toBe('merchant_exists');
    expect((await errorOf(await admin('POST', '/w/a/_sandbox/merchants', { rate: 'high' }))).details[0]?.field).toBe('rate');
  });
});

describe('names and limits', () => {
  it('refuses a bad name with the error envelope naming the allowed characters', async () => {
    t = await makeSandbox();
    for (const path of ['/w/a%2Fb/_sandbox/clock', `/w/${'x'.repeat(65)}/_sandbox/clock`, '/w//_sandbox/clock', '/w/caf%C3%A9/api/v1/trades/deposit/create', '/w/a%20b']) {
      const res = await t.app.request(path);
      expect(res.status, path).toBe(404);
      const error = await errorOf(res);
      expect(error.code).toBe('invalid_workspace_name');
      expect(error.message).toContain('1 to 64 characters, each a letter A-Z or a-z, a digit 0-9, "_", "." or "-"');
    }
    expect((await t.app.request(`/w/${'x'.repeat(64)}/_sandbox/clock`)).status).toBe(200);
    expect((await t.app.request('/w/A.b_c-9/_sandbox/clock')).status).toBe(200);
  });

  it('past --max-workspaces a new name gets a 429 that names the limit; removing one makes room', async () => {
    t = await makeSandbox({ maxWorkspaces: 2 });
    expect((await t.app.request('/w/one/_sandbox/clock')).status).toBe(200);
    expect((await t.app.request('/w/two/_sandbox/clock')).status).toBe(200);
    const refused = await t.app.request('/w/three/_sandbox/clock');
    expect(refused.status).toBe(429);
    const error = await errorOf(refused);
    expect(error.code).toBe('workspace_limit');
    expect(error.message).toContain('--max-workspaces 2');
    expect(error.message).toContain('DEPOSIT_SANDBOX_MAX_WORKSPACES');
    // Existing ones and default keep working.
    expect((await t.app.request('/w/one/_sandbox/clock')).status).toBe(200);
    expect((await t.app.request('/_sandbox/clock')).status).toBe(200);
    const removed = await json<{ status: string; workspace: { name: string } }>(admin('DELETE', '/w/two/_sandbox'));
    expect(removed).toMatchObject({ status: 'deleted', workspace: { name: 'two' } });
    expect((await t.app.request('/w/three/_sandbox/clock')).status).toBe(200);
  });

  it('DELETE of an unknown workspace is a 404, of default a 409', async () => {
    t = await makeSandbox();
    expect((await errorOf(await admin('DELETE', '/w/nobody/_sandbox'))).code).toBe('workspace_not_found');
    expect((await admin('DELETE', '/w/default/_sandbox')).status).toBe(409);
    expect((await admin('DELETE', '/_sandbox')).status).toBe(409);
    // A page of another site cannot remove a workspace.
    expect((await t.app.request('/w/kept/_sandbox/clock')).status).toBe(200);
    const crossSite = await admin('DELETE', '/w/kept/_sandbox', undefined, { 'Sec-Fetch-Site': 'cross-site', Origin: 'https://evil.example' });
    expect(crossSite.status).toBe(403);
    expect((await json<{ workspaces: Array<{ name: string }> }>(t.app.request('/_sandbox/workspaces'))).workspaces.map((w) => w.name)).toContain('kept');
  });

  it('the admin token guards the workspace routes too', async () => {
    t = await makeSandbox({ adminToken: 'sesame-token' });
    expect((await t.app.request('/w/a/_sandbox/trades')).status).toBe(401);
    expect((await t.app.request('/_sandbox/workspaces')).status).toBe(401);
    expect((await admin('DELETE', '/w/a/_sandbox')).status).toBe(401);
    expect((await t.app.request('/w/a/_sandbox/trades', { headers: { Authorization: 'Bearer sesame-token' } })).status).toBe(200);
  });
});

describe('pages under the prefix', () => {
  it('the payment page posts to and redirects within its workspace', async () => {
    t = await makeSandbox();
    const trade = await json<{ id: string }>(t.post('/w/qa/api/v1/trades/deposit/create', p2pBody()));
    const page = await (await t.app.request(`/w/qa/pay/${trade.id}`)).text();
    expect(page).toContain(`action="/w/qa/pay/${trade.id}/pay"`);
    const paid = await t.app.request(`/w/qa/pay/${trade.id}/pay`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: '' });
    expect(paid.status).toBe(303);
    expect(paid.headers.get('Location')).toBe(`/w/qa/pay/${trade.id}/result`);
    expect((await t.app.request(`/w/qa/pay/${trade.id}/result`)).status).toBe(200);
  });

  it('the dashboard knows its workspace; /w/<name>/_sandbox redirects to it', async () => {
    t = await makeSandbox();
    const redirect = await t.app.request('/w/qa/_sandbox');
    expect(redirect.headers.get('Location')).toBe('/w/qa/_sandbox/');
    const html = await (await t.app.request('/w/qa/_sandbox/')).text();
    expect(html).toContain('data-base="/w/qa"');
    expect(html).toContain('data-workspace="qa"');
    expect(await (await t.app.request('/_sandbox/')).text()).toContain('data-workspace="default"');
  });
});

describe('one app for every workspace', () => {
  it('the workspace listing and DELETE /_sandbox are the server root only; under a prefix they are unknown routes', async () => {
    t = await makeSandbox();
    await t.post('/w/alpha/api/v1/trades/deposit/create', p2pBody());
    expect((await t.app.request('/_sandbox/workspaces')).status).toBe(200);
    const prefixed = await t.app.request('/w/alpha/_sandbox/workspaces');
    expect(prefixed.status).toBe(404);
    expect((await errorOf(prefixed)).code).toBe('not_found');
    expect((await errorOf(await admin('DELETE', '/_sandbox'))).code).toBe('default_workspace');
    // Removing an unknown workspace creates nothing.
    expect((await errorOf(await admin('DELETE', '/w/ghost/_sandbox'))).code).toBe('workspace_not_found');
    const names = (await json<{ workspaces: Array<{ name: string }> }>(t.app.request('/_sandbox/workspaces'))).workspaces.map((w) => w.name);
    expect(names).toEqual(['default', 'alpha']);
  });

  it('GET /openapi.json names the server of the sandbox it was asked of, and the default one again after a workspace', async () => {
    t = await makeSandbox({ publicUrl: 'http://sandbox.test:4242' });
    const server = async (path: string) => (await json<{ servers: Array<{ url: string }> }>(t.app.request(path))).servers[0]?.url;
    expect(await server('/openapi.json')).toBe('http://sandbox.test:4242');
    expect(await server('/w/alpha/openapi.json')).toBe('http://sandbox.test:4242/w/alpha');
    expect(await server('/w/beta/openapi.json')).toBe('http://sandbox.test:4242/w/beta');
    expect(await server('/openapi.json')).toBe('http://sandbox.test:4242');
  });

  it('the dashboard and its redirect carry the prefix the request came with', async () => {
    t = await makeSandbox();
    const redirect = await t.app.request('/w/alpha/_sandbox');
    expect(redirect.status).toBe(301);
    expect(redirect.headers.get('Location')).toBe('/w/alpha/_sandbox/');
    expect(await (await t.app.request('/w/alpha/_sandbox/')).text()).toContain('/w/alpha/_sandbox/assets/dashboard.js');
    expect((await t.app.request('/_sandbox')).headers.get('Location')).toBe('/_sandbox/');
  });
});

describe('the router owns the workspace', () => {
  it('a percent-escaped prefix is the workspace the router routed to: /%77/worker-1 is /w/worker-1', async () => {
    t = await makeSandbox();
    for (const prefix of ['/%77/worker-1', '/w/worker%2D1']) {
      const created = await t.post(`${prefix}/api/v1/trades/deposit/create`, p2pBody());
      expect(created.status, prefix).toBe(201);
      const trade = await json<{ id: string }>(created);
      expect((await t.get(`/w/worker-1/api/v1/trades/${DEMO.id}/${trade.id}`)).status, prefix).toBe(200);
      expect((await t.get(`/api/v1/trades/${DEMO.id}/${trade.id}`)).status, prefix).toBe(404);
    }
    const listed = await json<{ workspaces: Array<{ name: string; trades: number }> }>(t.app.request('/_sandbox/workspaces'));
    expect(listed.workspaces.map((w) => [w.name, w.trades])).toEqual([
      ['default', 0],
      ['worker-1', 2],
    ]);
  });

  it('DELETE /w/<name>/_sandbox is an ordinary admin route: the CORS policy answers it like the others', async () => {
    t = await makeSandbox();
    expect((await t.app.request('/w/gone/_sandbox/clock')).status).toBe(200);
    const origin = 'http://localhost';
    const removed = await t.app.request('http://localhost/w/gone/_sandbox', { method: 'DELETE', headers: { Origin: origin } });
    expect(removed.status).toBe(200);
    expect(removed.headers.get('Access-Control-Allow-Origin')).toBe(origin);
    const preflight = await t.app.request('http://localhost/w/other/_sandbox', { method: 'OPTIONS', headers: { Origin: 'https://evil.example', 'Access-Control-Request-Method': 'DELETE' } });
    expect(preflight.status).toBe(403);
    expect((await errorOf(preflight)).code).toBe('cross_origin_refused');
  });
});

describe('services given at creation', () => {
  it('a workspace logs with the logger the server was given: its scenario line, marked with its name', async () => {
    const logger = capturingLogger();
    t = await makeSandbox({ clock: 'manual' }, { services: { logger } });
    expect((await t.post('/w/qa-1/api/v1/trades/deposit/create', p2pBody({ order: 'sbx-confirm-ws' }))).status).toBe(201);
    expect((await t.post('/api/v1/trades/deposit/create', p2pBody({ order: 'sbx-confirm-root' }))).status).toBe(201);
    expect(logger.infos).toEqual([
      expect.stringMatching(/^workspace "qa-1": scenario "confirm" took any_bank order "sbx-confirm-ws"/),
      expect.stringMatching(/^scenario "confirm" took any_bank order "sbx-confirm-root"/),
    ]);
  });
});

describe('hints keep the workspace', () => {
  it('a 404 in /w/<name> points to the routes of that workspace', async () => {
    t = await makeSandbox();
    const trade = await errorOf(await t.app.request('/w/qa-2/_sandbox/trades/nope'));
    expect(trade.message).toContain('GET /w/qa-2/_sandbox/trades');
    const callback = await errorOf(await t.app.request('/w/qa-2/_sandbox/callbacks/nope'));
    expect(callback.message).toContain('GET /w/qa-2/_sandbox/callbacks');
    const merchant = await errorOf(await admin('POST', '/w/qa-2/_sandbox/merchants/nope/sign', { string_to_sign: 'x' }));
    expect(merchant.message).toContain('GET /w/qa-2/_sandbox/merchants');
    // Unprefixed, the hint stays unprefixed.
    expect((await errorOf(await t.app.request('/_sandbox/trades/nope'))).message).toContain('List trades with GET /_sandbox/trades.');
  });
});
