import { afterEach, expect, it } from 'vitest';
import { failingRows } from '../../src/report/coverage-formats.js';
import type { IntegrationReport } from '../../src/report/report-schema.js';
import { DEMO, makeSandbox, p2pBody, type TestSandbox } from '../support.js';

// A sharded suite (a workspace per worker) meets each coverage row in some workspace: the root
// report says what the suite met as a whole, per merchant over every workspace.

let t: TestSandbox;
afterEach(() => t.close());

const rootReport = async () => (await (await t.app.request('/_sandbox/report')).json()) as IntegrationReport;
const status = (coverage: IntegrationReport['coverage'] | undefined, id: string) => coverage?.find((m) => m.merchant === DEMO.id)?.rows.find((row) => row.id === id);

it("merges every workspace's coverage per merchant, each row at its highest status, naming the workspace that set it", async () => {
  t = await makeSandbox();
  expect((await t.post('/w/worker-1/api/v1/trades/deposit/create', p2pBody())).status).toBe(201);
  expect((await t.post('/w/worker-2/api/v1/trades/deposit/create', p2pBody())).status).toBe(201);
  expect((await t.post('/w/worker-2/api/v1/trades/deposit/create', p2pBody(), { 'X-Auth': 'wrong', 'X-Sandbox-Deliberate': 'yes' })).status).toBe(401);

  const report = await rootReport();
  // The per-workspace detail stays.
  expect(report.coverage.map((m) => m.workspace)).toEqual(['worker-1', 'worker-2']);
  expect(status(report.coverage, 'create.refused_401')).toMatchObject({ status: 'not_seen' });
  // Merged: one entry per merchant; the 401 was met in worker-2.
  expect(report.coverage_merged?.map((m) => m.merchant)).toEqual([DEMO.id]);
  expect(status(report.coverage_merged, 'create.refused_401')).toMatchObject({ status: 'seen', workspace: 'worker-2' });
  expect(status(report.coverage_merged, 'create.accepted')?.status).toBe(status(report.coverage, 'create.accepted')?.status);

  // JUnit: one coverage suite per merchant over all workspaces, not one per workspace.
  const xml = await (await t.app.request('/_sandbox/report?format=junit')).text();
  expect(xml).toContain(`<testsuite name="deposit-sandbox coverage (all workspaces): Demo Shop (${DEMO.id})"`);
  expect(xml).not.toContain('deposit-sandbox coverage: Demo Shop');
  // --fail-on is judged on the merged rows: a row met in any workspace is met.
  expect(failingRows(report, 'not-handled').some((line) => line.includes('create.refused_401'))).toBe(false);

  // A workspace's own report has no merged coverage: it is the root's.
  expect(Object.keys((await (await t.app.request('/w/worker-1/_sandbox/report')).json()) as object)).not.toContain('coverage_merged');
});

it('a server without workspaces reports as before: no merged coverage', async () => {
  t = await makeSandbox();
  expect((await t.post('/api/v1/trades/deposit/create', p2pBody())).status).toBe(201);
  expect(Object.keys(await rootReport())).toEqual(['total', 'merchants', 'notes', 'coverage']);
});
