/**
 * One process per data folder (real processes): a second `serve` on the same folder is
 * refused at once, naming the holder; a holder killed with SIGKILL does not block the next one.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../src/programmatic/start-sandbox.js';
import { createTrade, killAll, serve, serveRefused, tradeIds } from './data-folder-support.js';

const folders: string[] = [];
afterAll(() => {
  killAll();
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'deposit-sandbox-lock-'));
  folders.push(dir);
  return dir;
}

describe('the data folder lock', () => {
  it('refuses a second process on the same folder; the first keeps serving and loses nothing', async () => {
    const data = folder();
    const first = await serve(data);
    const acknowledged: string[] = [];
    for (let i = 0; i < 3; i++) acknowledged.push(String((await createTrade(first.url)).body['id']));

    const second = await serveRefused(data);
    expect(second.code).toBe(1);
    expect(second.ms).toBeLessThan(2_000);
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
});
