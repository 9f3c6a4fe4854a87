/**
 * A data folder, or a file in it, that cannot be written: the sandbox refuses to start (exit 1,
 * the path and the reason named) instead of starting and then refusing every change.
 * Root ignores permission bits, so the faults are a read-only tmpfs mount and `chattr +i`;
 * each is skipped with a message where the machine does not allow it.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createTrade, killAll, serve, serveRefused, tryRun } from './data-folder-support.js';

const root = mkdtempSync(join(tmpdir(), 'deposit-sandbox-readonly-'));
const immutable: string[] = [];
const mounted: string[] = [];
afterAll(() => {
  killAll();
  for (const path of immutable) tryRun('chattr', ['-i', path]);
  for (const path of mounted) tryRun('umount', ['-l', path]);
  rmSync(root, { recursive: true, force: true });
});

const probe = join(root, 'probe');
mkdirSync(probe);
const chattrRefusal = tryRun('chattr', ['+i', probe]) ?? tryRun('chattr', ['-i', probe]);
if (chattrRefusal) console.warn(`read-only-folder.test.ts: chattr cases skipped, chattr +i is not allowed here (${chattrRefusal}).`);
const mountPoint = join(root, 'mnt');
mkdirSync(mountPoint);
const mountRefusal = tryRun('mount', ['-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', mountPoint]);
if (mountRefusal) console.warn(`read-only-folder.test.ts: read-only mount case skipped, mounting a tmpfs is not allowed here (${mountRefusal}).`);
else mounted.push(mountPoint);

/** A data folder with two trades in it, written by a sandbox that stopped cleanly. */
async function folderWithTrades(parent: string): Promise<string> {
  const data = join(parent, `data-${readdirSync(parent).length}`);
  const sandbox = await serve(data);
  await createTrade(sandbox.url);
  await createTrade(sandbox.url);
  expect(await sandbox.stop()).toBe(0);
  return data;
}

describe.skipIf(chattrRefusal !== undefined)('immutable files (chattr +i)', () => {
  it('an immutable journal stops start-up, naming the file and EPERM (defect 7)', async () => {
    const data = await folderWithTrades(root);
    const journal = readdirSync(data).find((name) => /^journal\.\d+\.ndjson$/.test(name));
    expect(journal).toBeDefined();
    const path = join(data, journal ?? '');
    expect(tryRun('chattr', ['+i', path])).toBeUndefined();
    immutable.push(path);

    const refused = await serveRefused(data);
    expect(refused.code).toBe(1);
    expect(refused.stdout).not.toContain('listening');
    expect(refused.stderr).toContain(`Cannot write the journal ${path} (EPERM`);
    expect(refused.stderr).toMatch(/chattr -i/);
  });

  it('an immutable db.json stops start-up too', async () => {
    const data = await folderWithTrades(root);
    const path = join(data, 'db.json');
    expect(tryRun('chattr', ['+i', path])).toBeUndefined();
    immutable.push(path);
    const refused = await serveRefused(data);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`Cannot write the snapshot ${path} (EPERM`);
  });

  it('an immutable data folder stops start-up, naming the folder', async () => {
    const data = await folderWithTrades(root);
    expect(tryRun('chattr', ['+i', data])).toBeUndefined();
    immutable.push(data);
    const refused = await serveRefused(data);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`Cannot write the data folder ${data} (EPERM`);
  });
});

describe.skipIf(mountRefusal !== undefined)('a read-only mount', () => {
  it('refuses to start with EROFS and the folder, and the data is untouched', async () => {
    const data = await folderWithTrades(mountPoint);
    const before = readdirSync(data).sort();
    expect(tryRun('mount', ['-o', 'remount,ro', mountPoint])).toBeUndefined();
    const refused = await serveRefused(data);
    expect(refused.code).toBe(1);
    expect(refused.stdout).not.toContain('listening');
    expect(refused.stderr).toContain(`Cannot write the data folder ${data} (EROFS: the file system is mounted read-only)`);
    expect(readdirSync(data).sort()).toEqual(before);
  });
});
