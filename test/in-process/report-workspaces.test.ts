/**
 * The report of a shared server: the root's GET /_sandbox/report holds every workspace's
 * mistakes, each named, and keeps a deleted workspace's until the process exits; names from
 * requests are cut and escaped, and a merchant's distinct fields are capped, so the report stays
 * small whatever a tenant sends. Through the app (app.request(), no port).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { reportJunit, reportMarkdown } from '../../src/report/report-formats.js';
import { type IntegrationReport, integrationReportSchema } from '../../src/report/report-schema.js';
import { junitErrors } from '../junit-schema.js';
import { DEMO, makeSandbox, p2pBody, type TestSandbox } from '../support.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function sandbox(): Promise<TestSandbox> {
  const t = await makeSandbox({ clock: 'manual' });
  cleanups.push(() => t.close());
  return t;
}

async function report(t: TestSandbox, prefix = ''): Promise<IntegrationReport> {
  const res = await t.app.request(`${prefix}/_sandbox/report`);
  expect(res.status).toBe(200);
  return integrationReportSchema.parse(await res.json());
}

/** No lone surrogate (encodeURIComponent throws on one). */
function isWellFormed(text: string): boolean {
  try {
    encodeURIComponent(text);
    return true;
  } catch {
    return false;
  }
}

/** Whether a text holds a C0 control character. */
const hasControl = (text: string) => [...text].some((char) => char.charCodeAt(0) < 0x20);

const wrongToken = (t: TestSandbox, prefix: string) => t.post(`${prefix}/api/v1/trades/deposit/create`, p2pBody(), { 'X-Auth': 'not-the-token' });

describe('the root report covers every workspace', () => {
  it("holds each workspace's mistakes and coverage, named; a workspace's own report holds only its own", async () => {
    const t = await sandbox();
    expect((await wrongToken(t, '')).status).toBe(401);
    expect((await wrongToken(t, '/w/alpha')).status).toBe(401);
    expect((await wrongToken(t, '/w/alpha')).status).toBe(401);
    expect((await t.post('/w/beta/api/v1/trades/deposit/create', p2pBody())).status).toBe(201);
    const root = await report(t);
    expect(root.total).toBe(3);
    expect(root.merchants.map((m) => [m.workspace, m.merchant, m.total])).toEqual([
      [undefined, DEMO.id, 1],
      ['alpha', DEMO.id, 2],
    ]);
    expect(root.coverage.map((m) => [m.workspace, m.name])).toEqual([
      [undefined, 'Demo Shop'],
      ['alpha', 'Demo Shop'],
      ['beta', 'Demo Shop'],
    ]);
    const alpha = await report(t, '/w/alpha');
    expect(alpha.total).toBe(2);
    expect(alpha.merchants.map((m) => m.workspace)).toEqual([undefined]);
    const xml = reportJunit(root);
    expect(await junitErrors(xml)).toEqual([]);
    expect(xml).toContain(`<testsuite name="deposit-sandbox integration: Demo Shop (${DEMO.id}) in workspace alpha"`);
    // The coverage in JUnit is over all workspaces (one suite per merchant); each workspace's stays in the JSON.
    expect(xml).toContain(`<testsuite name="deposit-sandbox coverage (all workspaces): Demo Shop (${DEMO.id})"`);
    expect(xml).not.toContain(`classname="deposit-sandbox.coverage.beta.${DEMO.id}"`);
    expect(reportMarkdown(root)).toContain(`## Demo Shop (${DEMO.id}) in workspace alpha: 2 mistakes`);
  });

  it("keeps a deleted workspace's counts until exit, added up with a workspace created again under its name", async () => {
    const t = await sandbox();
    expect((await wrongToken(t, '/w/gone')).status).toBe(401);
    expect((await t.app.request('/w/gone/_sandbox', { method: 'DELETE' })).status).toBe(200);
    let root = await report(t);
    expect(root.merchants).toMatchObject([{ workspace: 'gone', merchant: DEMO.id, name: 'Demo Shop', total: 1 }]);
    expect(root.coverage).toMatchObject([{ workspace: 'gone', name: 'Demo Shop' }]);
    expect((await wrongToken(t, '/w/gone')).status).toBe(401);
    root = await report(t);
    expect(root.merchants).toMatchObject([{ workspace: 'gone', merchant: DEMO.id, total: 2, unauthorized: [{ cause: 'signature_mismatch', count: 2 }] }]);
    expect((await report(t, '/w/gone')).total).toBe(1); // the new workspace's own
  });
});

describe('the report stays small and safe', () => {
  const twice = (key: string) => `{"merchant":"${DEMO.id}",${JSON.stringify(key)}:1,${JSON.stringify(key)}:2}`;

  it('caps the distinct fields per merchant and cuts long names: 300 different duplicated 30 KB keys make a report of a few KB', async () => {
    const t = await sandbox();
    for (let i = 0; i < 300; i++) expect((await t.post('/api/v1/trades/deposit/create', twice(`${i}-${'k'.repeat(30_000)}`))).status).toBe(422);
    const res = await t.app.request('/_sandbox/report');
    const text = await res.text();
    expect(text.length).toBeLessThan(16 * 1024);
    const demo = integrationReportSchema.parse(JSON.parse(text)).merchants[0]!;
    expect(demo.total).toBe(300);
    expect(demo.invalid).toHaveLength(51);
    expect(demo.invalid.at(-1)).toEqual({ field: '(more)', code: '(more)', count: 250 });
    expect(Math.max(...demo.invalid.map((i) => i.field.length))).toBe(101); // 100 and the "…"
  });

  it('a key "amount\\u0000validation_failed" is that field, escaped, never a 422 validation_failed on amount; lone surrogates become U+FFFD', async () => {
    const t = await sandbox();
    expect((await t.post('/api/v1/trades/deposit/create', twice('amount\u0000validation_failed'))).status).toBe(422);
    expect((await t.post('/api/v1/trades/deposit/create', twice('x\ud800y'))).status).toBe(422);
    expect((await t.post('/api/v1/trades/deposit/create', twice('line\r\n| cell'))).status).toBe(422);
    const res = await t.app.request('/_sandbox/report');
    const text = await res.text();
    const seen = integrationReportSchema.parse(JSON.parse(text));
    // No control character and no lone surrogate in any text of the report.
    const texts: string[] = [];
    JSON.parse(text, (_key, value: unknown) => {
      if (typeof value === 'string') texts.push(value);
      return value;
    });
    expect(texts.filter((value) => hasControl(value) || !isWellFormed(value))).toEqual([]);
    expect(seen.merchants[0]!.invalid).toEqual([
      { field: 'amount\\u0000validation_failed', code: 'invalid_json', count: 1 },
      { field: 'line\\u000d\\u000a| cell', code: 'invalid_json', count: 1 },
      { field: 'x\ufffdy', code: 'invalid_json', count: 1 },
    ]);
    const xml = reportJunit(seen);
    expect(await junitErrors(xml)).toEqual([]);
    expect(xml).toContain('422 invalid_json on amount\\u0000validation_failed: 1');
    const md = reportMarkdown(seen);
    expect(md).toContain('422 invalid_json on line\\u000d\\u000a\\| cell: 1');
    expect(hasControl(md.replace(/\n/g, ''))).toBe(false);
  });

  it('a path that is not valid percent-encoding is counted as sent, never a 500', async () => {
    const t = await sandbox();
    const res = await t.app.request('/api/v1/trades/%FF/abc', { headers: { 'X-Token': 'wrong' } });
    expect(res.status).toBeLessThan(500);
  });
});
