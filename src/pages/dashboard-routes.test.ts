import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setWorkspaceProfile } from '../profile/workspace-profile.js';
import { CLIENT_DIR } from './client-bundle.js';
import { DEMO, makeSandbox, p2pBody, type TestSandbox } from '../../test/support.js';

let t: TestSandbox;
beforeEach(async () => {
  t = await makeSandbox({ adminToken: 'qa-admin-token' });
});
afterEach(() => t.close());

describe('GET /_sandbox/ (dashboard shell)', () => {
  it('is served without the admin token and holds no data or secrets', async () => {
    const created = await t.post('/api/v1/trades/deposit/create', p2pBody({ order: 'order-visible-only-through-the-api' }));
    expect(created.status).toBe(201);
    const res = await t.app.request('/_sandbox/');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await res.text();
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain('<script src="/_sandbox/assets/dashboard.js" defer=""></script>');
    expect(html).toContain('data-testid="token-input"');
    for (const secret of ['order-visible-only-through-the-api', 'qa-admin-token', DEMO.secret, DEMO.token]) expect(html).not.toContain(secret);
  });

  it('redirects /_sandbox to /_sandbox/', async () => {
    const res = await t.app.request('/_sandbox');
    expect(res.status).toBe(301);
    expect(res.headers.get('location')).toBe('/_sandbox/');
  });

  it('serves its script and stylesheet; the script parses and never uses innerHTML', async () => {
    const css = await t.app.request('/_sandbox/assets/dashboard.css');
    expect(css.status).toBe(200);
    expect(css.headers.get('content-type')).toMatch(/^text\/css/);
    const js = await t.app.request('/_sandbox/assets/dashboard.js');
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toMatch(/^text\/javascript/);
    const source = await js.text();
    expect(() => new Function(source)).not.toThrow();
    expect(source).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write/);
    expect(source).toContain('Authorization');
    // The very file the build wrote and the package ships, not a test-time rendering of it.
    expect(source).toBe(readFileSync(`${CLIENT_DIR}dashboard.js`, 'utf8'));
  });

  it('leaves the admin API behind the token', async () => {
    expect((await t.app.request('/_sandbox/trades')).status).toBe(401);
    expect((await t.app.request('/_sandbox/trades', { headers: { Authorization: 'Bearer qa-admin-token' } })).status).toBe(200);
    expect((await t.app.request('/_sandbox/health')).status).toBe(200);
    const admin = await t.app.request('/_sandbox/clock', { headers: { Authorization: 'Bearer qa-admin-token' } });
    expect(admin.headers.get('content-security-policy')).toBeNull();
  });
});

describe('the dashboard under a provider profile with intermediate states', () => {
  it("offers the profile's states in the trades filter, in lifecycle order, an intermediate one by its name", async () => {
    const states = async () => {
      const filter = /data-testid="filter-state">(.*?)<\/select>/s.exec(await (await t.app.request('/_sandbox/')).text())?.[1] ?? '';
      return [...filter.matchAll(/<option value="([^"]+)">([^<]*)</g)].map((m) => `${m[1]}=${m[2]}`);
    };
    expect(await states()).toEqual(['created=created', 'ecom=ecom', 'confirmed=confirmed', 'canceled=canceled', 'expired=expired']);
    expect((await setWorkspaceProfile(t.sandbox, 'name: slow-bank\nextends: sandbox\nstates:\n  intermediate: [processing, review]\n')).ok).toBe(true);
    expect(await states()).toEqual(['created=created', 'ecom=ecom', 'processing=processing', 'review=review', 'confirmed=confirmed', 'canceled=canceled', 'expired=expired']);
  });
});
