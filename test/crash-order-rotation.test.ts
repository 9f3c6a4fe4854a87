/**
 * The workspaces' journal at its size limit, on real processes (the build in dist/: run `npm run
 * build` before running this file alone): the crash-order sequences of test/crash-order.test.ts
 * against a process whose journal starts a new generation every few records
 * (test/small-journal-sandbox.mjs, bundled once for the file by test/small-journal-bundle.ts; the
 * limit is 256 MiB otherwise, and no option sets it), so that clean stops and kill -9 fall in the
 * middle of rotations and of the folds they ask for.
 * 6 sequences of up to 20 steps; CRASH_FUZZ_RUNS and the replay variables of
 * test/crash-order.test.ts apply here too. Loopback only; every process and data folder is
 * removed after each sequence and in afterAll.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanUp, fuzzCrashOrder, journalGeneration, send, startSpawned } from './crash-order.js';
import { DEMO } from './merchants.js';
import { killAll, tempDir } from './sandbox-process.js';
import { bundleSmallJournal, type SmallJournalBundle } from './small-journal-bundle.js';

let bundle: SmallJournalBundle | undefined;

beforeAll(async () => {
  bundle = await bundleSmallJournal();
});

afterAll(() => {
  cleanUp();
  // Also removes the data folders tempDir() made.
  killAll();
  bundle?.remove();
});

describe('the workspaces journal at its size limit', () => {
  /** 1 KiB: the workspaces' journal starts a new generation at 4 KiB, about every five creates. */
  const smallJournal = (data: string) => startSpawned(process.execPath, [bundle!.script, data, '1024']);

  it('the small-journal sandbox starts new generations as it is written (what the sequences below run into)', async () => {
    const data = tempDir();
    const proc = await smallJournal(data);
    const generations = new Set<number>();
    for (let i = 0; i < 30; i++) {
      const body = JSON.stringify({ merchant: DEMO.id, order: `rotating-${process.pid}-${i}`, amount_cents: 31250, amount_currency: 'RUB', type: 'any_bank' });
      expect((await send(proc.port, 'POST', `/w/rotating-${i % 3}/api/v1/trades/deposit/create`, body, { 'X-Auth': DEMO.token }))?.status).toBe(201);
      generations.add(journalGeneration(data));
    }
    expect(Math.max(...generations)).toBeGreaterThanOrEqual(3);
    proc.child.kill('SIGKILL');
    await proc.exited;
  });

  it('random sequences of creates, deletes, stops and kill -9 over that journal, killed in the middle of rotations and folds: nothing acknowledged is lost', async () => {
    await fuzzCrashOrder({ launch: smallJournal, runs: Number(process.env['CRASH_FUZZ_RUNS'] ?? 6), maxCommands: 20, burst: 16, shrinkMs: 45_000 });
  }, 180_000);
});
