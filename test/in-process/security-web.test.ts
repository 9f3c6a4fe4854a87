/**
 * Security as a browser meets it, checked server-side with app.request(): the CORS policy,
 * cross-site writes refused, the DNS-rebinding host check, security headers on every page,
 * and every merchant-supplied string escaped on every page that prints it. (The same pages
 * in a real browser: test/browser/xss.test.ts.)
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { it, test } from '../temp-folder.js';
import { DEMO, ecomBody, errorOf, makeSandbox, p2pBody, type TestSandbox } from '../support.js';

let t: TestSandbox;
beforeAll(async () => {
  t = await makeSandbox({ clock: 'manual' });
});
afterAll(() => t.close());

const EVIL = 'https://evil.example';
const SELF = 'http://localhost'; // app.request() addresses http://localhost
const CREATE = '/api/v1/trades/deposit/create';

const preflight = (path: string, origin: string, method = 'POST') =>
  t.app.request(path, { method: 'OPTIONS', headers: { Origin: origin, 'Access-Control-Request-Method': method, 'Access-Control-Request-Headers': 'content-type,x-auth,authorization' } });

describe('CORS policy', () => {
  it.each([
    [CREATE, 'provider API is server-to-server'],
    ['/api/v1/trades/deposit/build', 'provider API is server-to-server'],
    [`/api/v1/trades/${DEMO.id}/0e0b7a52-5f1c-4b7e-9d7c-3a1f2b4c5d6e`, 'provider API is server-to-server'],
    ['/_sandbox/trades', 'admin API can read every trade'],
    ['/_sandbox/reset', 'admin API can read every trade'],
    ['/_sandbox/check-callback', 'admin API can read every trade'],
  ])('a preflight from another origin to %s is refused with a reason', async (path, why) => {
    for (const origin of [EVIL, 'null', 'http://localhost:3000', 'http://127.0.0.1']) {
      const res = await preflight(path, origin);
      expect(res.status, origin).toBe(403);
      expect(res.headers.get('Access-Control-Allow-Origin')).toBeNull();
      expect(res.headers.get('Access-Control-Allow-Methods')).toBeNull();
      const error = await errorOf(res);
      expect(error).toMatchObject({ status: 403, code: 'cross_origin_refused' });
      expect(error.message).toContain(why);
    }
  });

  it('actual requests from another origin get no Access-Control-Allow-Origin, so the page cannot read them', async () => {
    const created = await t.post(CREATE, p2pBody(), { Origin: EVIL });
    expect(created.status).toBe(201); // a server-side client may send any Origin; browsers enforce the header
    expect(created.headers.get('Access-Control-Allow-Origin')).toBeNull();
    for (const path of ['/_sandbox/trades', '/_sandbox/health', `/api/v1/trades/${DEMO.id}/0e0b7a52-5f1c-4b7e-9d7c-3a1f2b4c5d6e`]) {
      const res = await t.get(path, { Origin: EVIL });
      expect(res.headers.get('Access-Control-Allow-Origin'), path).toBeNull();
      expect(res.headers.get('Access-Control-Allow-Credentials'), path).toBeNull();
    }
  });

  it('same-origin requests and preflights are answered normally', async () => {
    const res = await preflight(CREATE, SELF);
    expect(res.status).toBe(204);
    expect(res.headers.get('Access-Control-Allow-Origin')).toBe(SELF);
    expect(res.headers.get('Access-Control-Allow-Headers')).toBe('Content-Type,X-Auth,X-Token,X-Sandbox-Scenario');
    expect(res.headers.get('Access-Control-Allow-Credentials')).toBeNull();
    const admin = await preflight('/_sandbox/trades/x/transition', SELF);
    expect(admin.status).toBe(204);
    expect(admin.headers.get('Access-Control-Allow-Headers')).toBe('Content-Type,Authorization');
    expect((await t.get('/_sandbox/trades', { Origin: SELF })).headers.get('Access-Control-Allow-Origin')).toBe(SELF);
  });

  it('requests without an Origin (servers, curl, tests) carry no CORS headers at all', async () => {
    const res = await t.post(CREATE, p2pBody());
    expect(res.status).toBe(201);
    for (const name of ['Access-Control-Allow-Origin', 'Vary']) expect(res.headers.get(name)).toBeNull();
  });

  it('the OpenAPI document is readable from any origin', async () => {
    const res = await t.get('/openapi.json', { Origin: EVIL });
    expect(res.headers.get('Access-Control-Allow-Origin')).toBe('*');
    expect(res.headers.get('Access-Control-Allow-Credentials')).toBeNull();
    expect((await preflight('/openapi.json', EVIL, 'GET')).status).toBe(204);
  });
});

describe('cross-site writes', () => {
  const reset = (headers: Record<string, string>) => t.app.request('/_sandbox/reset', { method: 'POST', headers });

  it('a page of another site cannot reset the sandbox, replay, or move a trade, even with a simple request', async () => {
    const { id } = (await (await t.post(CREATE, p2pBody())).json()) as { id: string };
    const before = t.sandbox.store.trades.size;
    const sites: Array<Record<string, string>> = [
      { Origin: EVIL },
      { Origin: 'null' },
      { 'Sec-Fetch-Site': 'cross-site' },
      { 'Sec-Fetch-Site': 'same-site', Origin: 'http://localhost:3000' },
      { Origin: 'http://localhost:3000' },
    ];
    for (const headers of sites) {
      const res = await reset({ ...headers, 'Content-Type': 'text/plain' });
      expect(res.status, JSON.stringify(headers)).toBe(403);
      const error = await errorOf(res);
      expect(error).toMatchObject({ status: 403, code: 'cross_site_request' });
      expect(error.message).toMatch(/refuses cross-site writes/);
      const move = await t.app.request(`/_sandbox/trades/${id}/transition`, { method: 'POST', headers: { ...headers, 'Content-Type': 'application/json' }, body: '{"state":"confirmed"}' });
      expect(move.status).toBe(403);
      const cancel = await t.app.request(`/pay/${id}/cancel`, { method: 'POST', headers });
      expect(cancel.status).toBe(403);
    }
    expect(t.sandbox.store.trades.size).toBe(before);
    expect(t.sandbox.store.trades.get(id)?.state).toBe('created');
  });

  it('same-origin pages and non-browser clients may write', async () => {
    const { id } = (await (await t.post(CREATE, p2pBody())).json()) as { id: string };
    const cancel = await t.app.request(`/pay/${id}/cancel`, { method: 'POST', headers: { Origin: SELF, 'Sec-Fetch-Site': 'same-origin' } });
    expect(cancel.status).toBe(303);
    const own: Array<Record<string, string>> = [{ 'Sec-Fetch-Site': 'same-origin' }, { 'Sec-Fetch-Site': 'none' }, { Origin: SELF }, {}];
    for (const headers of own) {
      expect((await reset(headers)).status, JSON.stringify(headers)).toBe(200);
    }
  });
});

describe('DNS rebinding', () => {
  it('a sandbox on loopback answers only loopback names and its public URL host', async () => {
    for (const host of ['evil.example', 'evil.example:4242', '192.168.1.5:4242', 'localhost.evil.example']) {
      const res = await t.get('/_sandbox/trades', { Host: host });
      expect(res.status, host).toBe(403);
      expect(await errorOf(res)).toMatchObject({ code: 'host_not_allowed', details: [{ field: 'Host' }] });
    }
    for (const host of ['localhost', 'localhost:4242', '127.0.0.1:4242', '127.1.2.3', '[::1]:4242', 'shop.localhost:4242']) {
      expect((await t.get('/_sandbox/trades', { Host: host })).status, host).toBe(200);
    }
  });

  it('--public-url adds its host; a sandbox bound to another interface checks nothing', async () => {
    const proxied = await makeSandbox({ publicUrl: 'http://sandbox.test:8080' });
    const exposed = await makeSandbox({ host: '0.0.0.0' });
    try {
      expect((await proxied.get('/_sandbox/trades', { Host: 'sandbox.test:8080' })).status).toBe(200);
      expect((await proxied.get('/_sandbox/trades', { Host: 'evil.example' })).status).toBe(403);
      expect((await exposed.get('/_sandbox/trades', { Host: 'lan-box.example:4242' })).status).toBe(200);
    } finally {
      await proxied.close();
      await exposed.close();
    }
  });
});

const MARKUP = ['<script>alert(1)</script>', '"><img src=x onerror=alert(2)>', "'><svg onload=alert(3)>", '</title><script>alert(4)</script>'];
/** The markup as live tags: present only if a string reached the page unescaped. */
const RAW = /<script>alert|<img src=x|<svg onload/;

describe('pages escape every merchant-supplied string', () => {
  let h: TestSandbox;
  test.beforeAll(async ({ fileFolder }) => {
    const fixtures = join(fileFolder, 'merchants.json');
    writeFileSync(fixtures, JSON.stringify({ merchants: [{ id: DEMO.id, name: `Shop ${MARKUP[1]}`, token: DEMO.token, secret: DEMO.secret, rate: 92.5 }] }));
    h = await makeSandbox({ clock: 'manual', fixtures });
  });
  afterAll(async () => {
    await h.close();
  });

  const expectEscaped = (html: string, where: string) => {
    expect(html, where).not.toMatch(RAW);
    expect(html, where).toContain('&lt;');
  };

  it.each(MARKUP)('%s in order, customer and return_url, on every page state', async (markup) => {
    const fields = () => ({ order: `${markup} ${Math.random()}`, customer: markup, return_url: `https://shop.example/?q=${markup}` });
    for (const body of [p2pBody(fields()), ecomBody(fields())]) {
      const path = body['type'] === 'ecom' ? '/api/v1/trades/deposit/build' : CREATE;
      const made = await h.post(path, body);
      expect(made.status).toBe(201);
      const { id } = (await made.json()) as { id: string };
      expectEscaped(await (await h.app.request(`/pay/${id}`)).text(), 'payment page');
      if (body['type'] === 'ecom') {
        // The form echoes what was typed, markup included, on a refused card.
        const refused = await h.app.request(`/pay/${id}/pay`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ number: markup.slice(0, 60), expiry: markup.slice(0, 60), cvc: '1' }).toString(),
        });
        expect(refused.status).toBe(422);
        expectEscaped(await refused.text(), 'refused card form');
      }
      h.sandbox.lifecycle.transition(id, 'canceled', 'admin', `note ${markup}`);
      expectEscaped(await (await h.app.request(`/pay/${id}/result`)).text(), 'result page');
      const final = await h.app.request(`/pay/${id}/cancel`, { method: 'POST' });
      expect(final.status).toBe(409);
      expectEscaped(await final.text(), 'already-final page');
    }
    const missing = await h.app.request(`/pay/${encodeURIComponent(markup)}`);
    expect(missing.status).toBe(404);
    expect(await missing.text()).not.toMatch(RAW);
  });

  it('the dashboard shell prints no merchant data; the data goes out as JSON only', async () => {
    const { id } = (await (await h.post(CREATE, p2pBody({ order: `${MARKUP[0]} zq-marker`, customer: MARKUP[1] }))).json()) as { id: string };
    const shell = await (await h.app.request('/_sandbox/')).text();
    expect(shell).not.toContain('zq-marker');
    expect(shell).not.toMatch(RAW);
    const detail = await h.app.request(`/_sandbox/trades/${id}`);
    expect(detail.headers.get('Content-Type')).toMatch(/^application\/json/);
  });
});

describe('security headers', () => {
  it('on every page and asset, including errors', async () => {
    const { id } = (await (await t.post(CREATE, p2pBody())).json()) as { id: string };
    for (const path of [
      `/pay/${id}`,
      `/pay/${id}/result`,
      '/pay/not-a-trade',
      '/assets/pay.js',
      '/assets/pay.css',
      '/_sandbox/',
      '/_sandbox/assets/dashboard.js',
      '/_sandbox/assets/dashboard.css',
      '/go-live',
      '/go-live/assets/go-live.js',
      '/go-live/assets/go-live.css',
    ]) {
      const res = await t.app.request(path);
      const csp = res.headers.get('Content-Security-Policy') ?? '';
      expect(csp, path).toContain("default-src 'none'");
      expect(csp, path).toContain("script-src 'self'");
      expect(csp, path).toContain("frame-ancestors 'none'");
      expect(csp, path).not.toContain('unsafe-inline');
      expect(res.headers.get('X-Frame-Options'), path).toBe('DENY');
      expect(res.headers.get('X-Content-Type-Options'), path).toBe('nosniff');
      expect(res.headers.get('Referrer-Policy'), path).toBe('same-origin');
      expect(res.headers.get('Cache-Control'), path).toBe('no-store');
    }
  });
});
