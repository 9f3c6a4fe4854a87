/**
 * One voice: what a sandbox has to say goes through the logger it was given at creation, marked
 * with the workspace where there is one; the tests read the logger, not process.stdout/stderr.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createSandbox } from '../src/sandbox.js';
import { capturingLogger, checkedApp } from './support.js';

const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

const SCENARIO = (name: string) => `scenarios:\n  - name: ${name}\n    description: Ends vx- orders.\n    match:\n      order: "^vx-"\n    timeline:\n      - after: 5s\n        state: confirmed\n`;

describe('one voice', () => {
  it("a workspace's warning (its uploaded scenarios set aside) goes to the logger, marked with the workspace", async () => {
    const data = mkdtempSync(join(tmpdir(), 'deposit-sandbox-voice-'));
    cleanup.push(() => rmSync(data, { recursive: true, force: true }));
    const first = await createSandbox({ data }, undefined, { services: { logger: capturingLogger() } });
    const put = await checkedApp(first).request('/w/qa/_sandbox/scenarios', { method: 'PUT', body: SCENARIO('late-name') });
    expect(put.status).toBe(200);
    await first.close();
    // The scenario files now hold that name too: the upload no longer fits and is set aside.
    const folder = join(data, 'more-scenarios');
    mkdirSync(folder);
    writeFileSync(join(folder, 'late.yaml'), SCENARIO('late-name'));
    const logger = capturingLogger();
    const second = await createSandbox({ data, scenarios: folder }, undefined, { services: { logger } });
    cleanup.push(() => second.close());
    await second.workspaces!.loaded();
    expect(logger.warnings).toEqual([expect.stringMatching(/^workspace "qa": the scenarios uploaded to this workspace were set aside:/)]);
  });

  it('a callback listener that throws (a bug) is told to the logger, not to stderr', async () => {
    const logger = capturingLogger();
    const sandbox = await createSandbox({ inMemory: true }, undefined, { services: { logger } });
    cleanup.push(() => sandbox.close());
    sandbox.callbacks.on('queued', () => {
      throw new Error('listener bug');
    });
    const app = checkedApp(sandbox);
    const created = await app.request('/api/v1/trades/deposit/create', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Auth': 'sandbox-token-demo' },
      body: JSON.stringify({ merchant: '6f1c2a9e-3b7d-4c52-9a1e-2d4b8f0c7e51', order: 'voice-1', amount_cents: 100, amount_currency: 'RUB', type: 'nspk', callback_url: 'http://127.0.0.1:9/cb' }),
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    expect((await app.request(`/_sandbox/trades/${id}/transition`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"state":"confirmed"}' })).status).toBe(200);
    expect(logger.warnings.some((line) => line.startsWith('a "queued" callback listener threw: Error: listener bug'))).toBe(true);
  });
});
