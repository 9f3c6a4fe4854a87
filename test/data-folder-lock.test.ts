/**
 * One process per data folder (real processes): a second `serve` on the same folder is
 * refused at once, naming the holder; a holder killed with SIGKILL does not block the next one;
 * a live holder is never taken over (stopped with SIGSTOP, its lock files deleted); a holder
 * whose lock was taken over stops writing.
 */
import { spawn } from 'node:child_process';
import { readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect } from 'vitest';
import { folderIn, it, test } from './temp-folder.js';
import { startSandbox } from '../src/programmatic/start-sandbox.js';
import { DEMO } from './support.js';
import { createTrade, killAll, serve, serveRefused, stderrContains, tradeIds } from './data-folder-support.js';

afterAll(killAll);

/** The file's temporary folder: its processes may run on their folders until afterAll stops them. */
let root: string;
test.beforeAll(({ fileFolder }) => {
  root = fileFolder;
});

/** A new data folder for one test. */
function folder(): string {
  return folderIn(root);
}

/**
 * The ids of the trades saved on `data`, read by a sandbox started on it in this process (which
 * takes the folder's lock as a process does): where a test is about what a stopped process left,
 * not about the next process's output.
 */
async function savedTradeIds(data: string): Promise<string[]> {
  const again = await startSandbox({ data });
  try {
    return await tradeIds(again.url);
  } finally {
    await again.close();
  }
}

describe('the data folder lock', () => {
  it('refuses a second process on the same folder; the first keeps serving and loses nothing', async () => {
    const data = folder();
    const first = await serve(data);
    const acknowledged: string[] = [];
    for (let i = 0; i < 3; i++) acknowledged.push(String((await createTrade(first.url)).body['id']));

    const second = await serveRefused(data);
    expect(second.code).toBe(1);
    expect(second.stdout).not.toContain('listening');
    const message = second.stderr.trim();
    expect(message.split('\n')).toHaveLength(1);
    expect(message).toContain(`The data folder ${data} is in use by another deposit-sandbox`);
    expect(message).toContain(`process ${first.child.pid}`);
    expect(message).toContain(`listening on ${first.url}`);
    expect(message).toMatch(/--data <another folder> or --in-memory/);
    expect(message).toContain(`kill ${first.child.pid}`);

    for (let i = 0; i < 3; i++) {
      const created = await createTrade(first.url);
      expect(created.status).toBe(201);
      acknowledged.push(String(created.body['id']));
    }
    expect(await first.stop()).toBe(0);

    const again = await serve(data);
    expect(again.stderr()).not.toMatch(/took over/);
    expect(await tradeIds(again.url)).toEqual(acknowledged.sort());
    expect(await again.stop()).toBe(0);
  });

  it('takes over the lock of a holder killed with SIGKILL, with a one-line notice', async () => {
    const data = folder();
    const first = await serve(data);
    const id = String((await createTrade(first.url)).body['id']);
    first.child.kill('SIGKILL');
    await first.exited;

    const next = await serve(data);
    expect(next.stderr()).toMatch(new RegExp(`^deposit-sandbox: took over the lock on the data folder .* left by process ${first.child.pid}, which is no longer running\\.\\n$`));
    expect(await tradeIds(next.url)).toEqual([id]);
    expect(await next.stop()).toBe(0);
  });

  it('startSandbox() on a folder in use is refused the same way, and works once it is free', async () => {
    const data = folder();
    const first = await startSandbox({ data });
    await expect(startSandbox({ data })).rejects.toThrow(new RegExp(`The data folder ${data} is in use by another deposit-sandbox \\(process ${process.pid}, listening on ${first.url}\\)`));
    await first.close();
    const second = await startSandbox({ data });
    await second.close();
  });

  it('never takes the lock from a holder stopped with SIGSTOP, however long ago it last refreshed it', async () => {
    const data = folder();
    const first = await serve(data);
    const id = String((await createTrade(first.url)).body['id']);
    const pid = first.child.pid ?? 0;
    first.child.kill('SIGSTOP');
    try {
      // As if it had been stopped for a minute (a debugger, a sleeping laptop): no refresh since.
      const past = new Date(Date.now() - 60_000);
      for (const name of ['.lock', 'lock.json']) utimesSync(join(data, name), past, past);
      const second = await serveRefused(data);
      expect(second.code).toBe(1);
      expect(second.stdout).not.toContain('listening');
      expect(second.stderr).toContain(`in use by another deposit-sandbox (process ${pid}, listening on ${first.url})`);
    } finally {
      first.child.kill('SIGCONT');
    }
    expect((await createTrade(first.url)).status).toBe(201);
    expect(await tradeIds(first.url)).toContain(id);
    expect(await first.stop()).toBe(0);
  });

  it('refuses a second process after `rm -rf .lock`; the first keeps its lock and its data', async () => {
    const data = folder();
    const first = await serve(data);
    const acknowledged = [String((await createTrade(first.url)).body['id'])];
    rmSync(join(data, '.lock'), { recursive: true, force: true });

    const second = await serveRefused(data);
    expect(second.code).toBe(1);
    expect(second.stderr).toContain(`in use by another deposit-sandbox (process ${first.child.pid}, listening on ${first.url})`);

    const created = await createTrade(first.url);
    expect(created.status).toBe(201);
    acknowledged.push(String(created.body['id']));
    expect(await first.stop()).toBe(0);
    const again = await serve(data);
    expect(again.stderr()).not.toMatch(/took over/);
    expect(await tradeIds(again.url)).toEqual(acknowledged.sort());
    expect(await again.stop()).toBe(0);
  });

  it.runIf(process.platform === 'linux')('with every lock file deleted, finds the holder by the folder it keeps open; the holder writes its file again', async () => {
    const data = folder();
    const first = await serve(data);
    const acknowledged = [String((await createTrade(first.url)).body['id'])];
    // Stopped, so that it cannot put its files back before the second process looks.
    first.child.kill('SIGSTOP');
    try {
      rmSync(join(data, '.lock'), { recursive: true, force: true });
      rmSync(join(data, 'lock.json'), { force: true });
      const second = await serveRefused(data);
      expect(second.code).toBe(1);
      expect(second.stderr).toContain(`in use by another deposit-sandbox (process ${first.child.pid}, which has the folder open; its lock files were deleted)`);
    } finally {
      first.child.kill('SIGCONT');
    }
    const created = await createTrade(first.url);
    expect(created.status).toBe(201);
    acknowledged.push(String(created.body['id']));
    await stderrContains(first, `the lock file ${join(data, 'lock.json')} was deleted while this sandbox ran on the folder; it was written again.`);
    expect(JSON.parse(readFileSync(join(data, 'lock.json'), 'utf8'))).toMatchObject({ pid: first.child.pid, url: first.url });
    expect(await first.stop()).toBe(0);
    expect(await savedTradeIds(data)).toEqual(acknowledged.sort());
  });

  it.runIf(process.platform === 'linux')('takes over from a PID that now belongs to another program (Linux: its start time differs)', async () => {
    const data = folder();
    const other = spawn('sleep', ['60']);
    try {
      await new Promise((resolve) => other.once('spawn', resolve));
      writeFileSync(join(data, 'lock.json'), JSON.stringify({ pid: other.pid, hostname: hostname(), since: '2026-01-01T00:00:00.000Z', start: '1', token: 'earlier' }));
      const next = await serve(data);
      expect(next.stderr()).toContain(`took over the lock on the data folder ${data} left by process ${other.pid}, whose process ID now belongs to another program.`);
      expect(await next.stop()).toBe(0);
    } finally {
      other.kill('SIGKILL');
    }
  });

  it("a holder whose lock was taken over stops writing, says so, and leaves the new holder's files alone", async () => {
    const data = folder();
    const first = await serve(data);
    const id = String((await createTrade(first.url)).body['id']);
    const snapshot = statSync(join(data, 'db.json'), { throwIfNoEntry: false })?.mtimeMs;
    // What a process on another host does once the holder has not refreshed the lock for 10 s.
    rmSync(join(data, 'lock.json'));
    const taker = JSON.stringify({ pid: 4242, hostname: 'ci-runner-7', url: 'http://10.0.0.7:4242', since: new Date().toISOString(), token: 'taker' });
    writeFileSync(join(data, 'lock.json'), taker);

    const refused = await createTrade(first.url);
    expect(refused.status).toBe(503);
    const error = refused.body['error'] as { code: string; message: string };
    expect(error.code).toBe('storage_error');
    expect(error.message).toContain(`The lock on the data folder ${data} was taken over by another deposit-sandbox (process 4242 on ci-runner-7, listening on http://10.0.0.7:4242)`);
    expect(error.message).toMatch(/no longer writes there.*Stop this sandbox and use the other one/);
    await stderrContains(first, `deposit-sandbox: The lock on the data folder ${data} was taken over`);
    // Reads keep working.
    expect(await tradeIds(first.url)).toEqual([id]);
    expect(await first.stop()).toBe(0);
    // Nothing written on the way out: the other holder's file is in place, db.json not rewritten.
    expect(readFileSync(join(data, 'lock.json'), 'utf8')).toBe(taker);
    expect(statSync(join(data, 'db.json'), { throwIfNoEntry: false })?.mtimeMs).toBe(snapshot);
  });

  it('one lock covers the workspaces: --data <data>/workspaces/<name> is refused while <data> is held, and the other way round', async () => {
    const data = folder();
    const first = await serve(data);
    const res = await fetch(`${first.url}/w/w1/api/v1/trades/deposit/create`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Auth': DEMO.token },
      body: JSON.stringify({ merchant: DEMO.id, order: 'ws-order-1', amount_cents: 10000, amount_currency: 'RUB', type: 'any_bank' }),
    });
    expect(res.status).toBe(201);
    const workspace = join(data, 'workspaces', 'w1');

    const direct = await serveRefused(workspace);
    expect(direct.code).toBe(1);
    expect(direct.stderr).toContain(
      `The data folder ${workspace} is the workspace "w1" of the data folder ${data}, which is in use by another deposit-sandbox (process ${first.child.pid}, listening on ${first.url})`,
    );
    expect(direct.stderr).toContain(`Use the workspace on the running server instead: ${first.url}/w/w1.`);
    // Same from code, and for a workspace that does not exist yet.
    await expect(startSandbox({ data: join(data, 'workspaces', 'w2') })).rejects.toThrow(`Use the workspace on the running server instead: ${first.url}/w/w2.`);
    expect(await first.stop()).toBe(0);

    // The other way round: a process holding the workspace folder itself keeps the server off <data>.
    const inside = await serve(workspace);
    const server = await serveRefused(data);
    expect(server.code).toBe(1);
    expect(server.stderr).toContain(
      `The data folder ${data} holds the workspace folder ${workspace}, which another deposit-sandbox uses as its own data folder (process ${inside.child.pid}, listening on ${inside.url}).`,
    );
    expect(server.stderr).toContain(`Stop the other one (kill ${inside.child.pid}) first, then start this one and use /w/w1 on it`);
    expect(await inside.stop()).toBe(0);
    // Once the workspace's own process is gone, <data> can be held again.
    const again = await startSandbox({ data });
    await again.close();
  });

  it('startSandbox(): a workspace folder of a data folder held in this process is refused too', async () => {
    const data = folder();
    const root = await startSandbox({ data });
    try {
      await expect(startSandbox({ data: join(data, 'workspaces', 'w1') })).rejects.toThrow(
        new RegExp(`is the workspace "w1" of the data folder ${data}, which is in use by another deposit-sandbox \\(process ${process.pid}, listening on ${root.url}\\)`),
      );
    } finally {
      await root.close();
    }
  });
});
