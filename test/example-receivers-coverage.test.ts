/**
 * The Python, PHP and Go example receivers (examples/python/receiver_with_probe.py,
 * examples/php/public/receiver-with-probe.php, examples/go/cmd/receiver-with-probe), each run as
 * its own process on 127.0.0.1, reach `handled` on every `callback.*` coverage row of the
 * integration report (GET /_sandbox/report) for the demo merchant: trades moved to confirmed,
 * canceled and expired, and the bundled orders sbx-dup-, sbx-race-, sbx-badsig- and sbx-flaky-,
 * all sent to the receiver by one in-process sandbox on a manual clock, with the receiver's
 * balance probe given as `probe` (serve --probe): every row is handled with its credit checked
 * (the amount once for confirmed trades, nothing for canceled and expired ones). A missing
 * toolchain skips its language with a message, except with CI=true, where it fails.
 */
import { afterEach, describe, expect, vi } from 'vitest';
import { it, test } from './temp-folder.js';
import { type CoverageRow, integrationReportSchema } from '../src/report/report-schema.js';
import { CI, exampleReceivers, has } from './example-receivers.js';
import { DEMO, makeSandbox, p2pBody, type TestSandbox } from './support.js';

/** The file's temporary folder, for the receivers' files (the fixture removes it after the file's tests). */
let root: string;
test.beforeAll(({ fileFolder }) => {
  root = fileFolder;
});
const receivers = exampleReceivers(() => root);
const LANGUAGES = receivers.languages;
const cleanups: Array<() => Promise<unknown> | unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  receivers.stop();
});

const CALLBACK_ROWS = ['callback.confirmed', 'callback.canceled', 'callback.expired', 'callback.retry_after_failure', 'callback.duplicate', 'callback.overlapping', 'callback.bad_signature'] as const;

/** The demo merchant's callback rows, as the root report lists them (it waits for the probe reads under way). */
async function callbackRows(t: TestSandbox): Promise<CoverageRow[]> {
  const res = await t.app.request('/_sandbox/report');
  expect(res.status).toBe(200);
  const coverage = integrationReportSchema.parse(await res.json()).coverage.find((m) => m.merchant === DEMO.id);
  expect(coverage?.credits).toBe('checked');
  return (coverage?.rows ?? []).filter((r) => r.id.startsWith('callback.'));
}

async function create(t: TestSandbox, callbackUrl: string, order?: string): Promise<string> {
  const created = await t.post('/api/v1/trades/deposit/create', p2pBody({ callback_url: callbackUrl, ...(order !== undefined ? { order } : {}) }));
  expect(created.status).toBe(201);
  return ((await created.json()) as { id: string }).id;
}

describe('the example receivers reach handled on every callback coverage row', () => {
  it.for(LANGUAGES)('%s: every callback.* row of the demo merchant is handled, credits checked through its balance probe', { timeout: 240_000 }, async ([language, command, launch], { skip }) => {
    if (!has(command)) {
      if (CI) throw new Error(`${command} is missing, and CI=true: install it (see .ci/run)`);
      skip(`the ${language} example receiver needs ${command}, which is not installed`);
    }
    const port = await launch();
    const t = await makeSandbox({ clock: 'manual', callbackRetries: '1s,1s,1s', callbackTimeout: '10s', probe: `http://127.0.0.1:${port}/probe` });
    cleanups.push(() => t.close());
    const url = `http://127.0.0.1:${port}/callback`;

    for (const state of ['confirmed', 'canceled', 'expired'] as const) t.sandbox.lifecycle.transition(await create(t, url), state, 'admin');
    for (const prefix of ['sbx-race-', 'sbx-badsig-']) t.sandbox.lifecycle.transition(await create(t, url, `${prefix}${language}`), 'confirmed', 'admin');
    // sbx-dup- and sbx-flaky- confirm on their own after 5 s of sandbox time; sbx-flaky- fails
    // attempts on purpose, then the retries (1 s apart here) reach the receiver.
    for (const prefix of ['sbx-dup-', 'sbx-flaky-']) await create(t, url, `${prefix}${language}`);
    await t.sandbox.scheduler.advance(0);
    await t.sandbox.scheduler.advance(5_000);
    for (let retry = 0; retry < 3; retry++) await t.sandbox.scheduler.advance(1_000);

    // The repeat of an sbx-dup- callback may still be on its way once the clock stops; wait for
    // the report to settle, bounded.
    await vi.waitFor(async () => expect((await callbackRows(t)).filter((r) => r.status === 'seen')).toEqual([]), { timeout: 20_000, interval: 100 });
    const rows = await callbackRows(t);
    expect(rows.map((r) => r.id)).toEqual([...CALLBACK_ROWS]);
    expect(rows.map((r) => `${r.id}: ${r.status}${r.status !== 'handled' && r.detail !== undefined ? ` (${r.detail})` : ''}`)).toEqual(CALLBACK_ROWS.map((id) => `${id}: handled`));
    // Handled because the probe showed the right credit, not only because the answers were 2xx.
    for (const r of rows) expect(r.detail).toMatch(/; the balance probe shows order \S+ (credited 31250 once|nothing credited)$/);
    expect(rows.find((r) => r.id === 'callback.duplicate')?.detail).toContain('credited 31250 once');
  });
});
