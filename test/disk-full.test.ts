/**
 * A real full disk: the data folder on a 2 MiB tmpfs, filled up by the test. Needs root
 * (mount); skipped with a message where mounting is not allowed. The same answers are
 * checked without a mount, through the adapter, in test/storage-faults.test.ts.
 */
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createTrade, killAll, serve, tradeIds, tryRun } from './data-folder-support.js';

const mountPoint = mkdtempSync(join(tmpdir(), 'deposit-sandbox-full-'));
const refusal = tryRun('mount', ['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', mountPoint]);
if (refusal) console.warn(`disk-full.test.ts: skipped, cannot mount a tmpfs here (${refusal}); test/storage-faults.test.ts covers the same answers.`);

afterAll(() => {
  killAll();
  if (!refusal) tryRun('umount', ['-l', mountPoint]);
  rmSync(mountPoint, { recursive: true, force: true });
});

/** Writes zeros to `path` until the disk is full. */
function fill(path: string): void {
  const fd = openSync(path, 'w');
  const chunk = Buffer.alloc(64 * 1024);
  try {
    for (;;) writeSync(fd, chunk);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  } finally {
    closeSync(fd);
  }
}

describe.skipIf(refusal !== undefined)('a full disk (tmpfs)', () => {
  it('answers storage_full, keeps reads, logs once, resumes once space is freed, and loses no acknowledged trade', async () => {
    const data = join(mountPoint, 'data');
    const filler = join(mountPoint, 'filler');
    const sandbox = await serve(data);
    const acknowledged: string[] = [];
    for (let i = 0; i < 3; i++) acknowledged.push(String((await createTrade(sandbox.url)).body['id']));

    fill(filler);
    // The journal's last page may still have room for a few records: go on until one is refused.
    let refused: Awaited<ReturnType<typeof createTrade>> | undefined;
    for (let i = 0; i < 500 && !refused; i++) {
      const answer = await createTrade(sandbox.url);
      if (answer.status === 201) acknowledged.push(String(answer.body['id']));
      else refused = answer;
    }
    expect(refused?.status).toBe(503);
    const error = refused?.body['error'] as { code: string; message: string };
    expect(error.code).toBe('storage_full');
    expect(error.message).toContain(data);
    expect(error.message).toMatch(/Free space/);

    const kept = acknowledged[0] ?? '';
    const admin = await fetch(`${sandbox.url}/_sandbox/trades/${kept}/transition`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ state: 'confirmed' }),
    });
    expect(admin.status).toBe(507);
    expect(((await admin.json()) as { error: { code: string } }).error.code).toBe('storage_full');
    expect((await createTrade(sandbox.url)).status).toBe(503);

    // Reads keep working.
    expect((await fetch(`${sandbox.url}/_sandbox/health`)).status).toBe(200);
    expect(await tradeIds(sandbox.url)).toEqual([...acknowledged].sort());

    rmSync(filler);
    const resumed = await createTrade(sandbox.url);
    expect(resumed.status, `${JSON.stringify(resumed.body)}\n${sandbox.stderr()}`).toBe(201);
    acknowledged.push(String(resumed.body['id']));
    expect(sandbox.stderr().match(/is full/g)).toHaveLength(1);
    expect(sandbox.stderr()).toMatch(/work again/);
    expect(await sandbox.stop()).toBe(0);

    const again = await serve(data);
    expect(await tradeIds(again.url)).toEqual([...acknowledged].sort());
    expect(await again.stop()).toBe(0);
  });
});
