import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { JournalWriter } from './journal-writer.js';

const cleanup: Array<() => void> = [];
afterEach(() => {
  for (const step of cleanup.splice(0).reverse()) step();
});

function tempFile(name: string): { path: string; fd: number } {
  const dir = mkdtempSync(join(tmpdir(), 'deposit-sandbox-writer-'));
  const path = join(dir, name);
  const fd = openSync(path, 'w+');
  cleanup.push(() => {
    closeSync(fd);
    rmSync(dir, { recursive: true, force: true });
  });
  return { path, fd };
}

describe('JournalWriter', () => {
  it('writes the records of many files asked for in one turn, each at its position, and the next turn after them', async () => {
    const writer = new JournalWriter();
    const files = Array.from({ length: 20 }, (_, i) => tempFile(`journal-${i}.ndjson`));
    await Promise.all(files.map(({ fd }, i) => writer.append(fd, Buffer.from(`first ${i} сделка\n`), 0, false)));
    await Promise.all(files.map(({ fd }, i) => writer.append(fd, Buffer.from(`second ${i}\n`), Buffer.byteLength(`first ${i} сделка\n`), i % 2 === 0)));
    for (const [i, { path }] of files.entries()) expect(readFileSync(path, 'utf8')).toBe(`first ${i} сделка\nsecond ${i}\n`);
  });

  it('refuses only the record whose write failed, with the system error code; the others of its batch are written', async () => {
    const writer = new JournalWriter();
    const good = tempFile('good.ndjson');
    const closed = tempFile('closed.ndjson');
    const readOnly = openSync(closed.path, 'r');
    cleanup.push(() => closeSync(readOnly));
    const [ok, refused] = await Promise.allSettled([writer.append(good.fd, Buffer.from('kept\n'), 0, false), writer.append(readOnly, Buffer.from('lost\n'), 0, false)]);
    expect(ok.status).toBe('fulfilled');
    expect(refused.status).toBe('rejected');
    expect((refused as PromiseRejectedResult).reason).toMatchObject({ code: 'EBADF', syscall: 'write' });
    expect(readFileSync(good.path, 'utf8')).toBe('kept\n');
    expect(readFileSync(closed.path, 'utf8')).toBe('');
  });

  it('writes a record asked for alone at its position, and with fdatasync when asked', async () => {
    const writer = new JournalWriter();
    const { path, fd } = tempFile('alone.ndjson');
    await writer.append(fd, Buffer.from('первая\n'), 0, false);
    await writer.append(fd, Buffer.from('second\n'), Buffer.byteLength('первая\n'), true);
    expect(readFileSync(path, 'utf8')).toBe('первая\nsecond\n');
  });

  it('refuses a record asked for alone with the system error code, and writes the next one', async () => {
    const writer = new JournalWriter();
    const { path } = tempFile('alone-refused.ndjson');
    const readOnly = openSync(path, 'r');
    cleanup.push(() => closeSync(readOnly));
    await expect(writer.append(readOnly, Buffer.from('lost\n'), 0, false)).rejects.toMatchObject({ code: 'EBADF', syscall: 'write' });
    const good = tempFile('after.ndjson');
    await writer.append(good.fd, Buffer.from('kept\n'), 0, false);
    expect(readFileSync(path, 'utf8')).toBe('');
    expect(readFileSync(good.path, 'utf8')).toBe('kept\n');
  });

  it('writes lone records of two journals asked for in two turns, the first perhaps still under way, each at its position', async () => {
    const writer = new JournalWriter();
    const a = tempFile('a.ndjson');
    const b = tempFile('b.ndjson');
    const first = writer.append(a.fd, Buffer.from('a1\n'), 0, false);
    // The next turn: the first record may still be in the pool.
    await new Promise((resolve) => setImmediate(resolve));
    const second = writer.append(b.fd, Buffer.from('b1\n'), 0, false);
    await Promise.all([first, second]);
    await writer.append(a.fd, Buffer.from('a2\n'), 3, false);
    expect(readFileSync(a.path, 'utf8')).toBe('a1\na2\n');
    expect(readFileSync(b.path, 'utf8')).toBe('b1\n');
  });

  it('writes the records asked for while a batch is at the writer thread once it answers, with nothing more asked for', async () => {
    const writer = new JournalWriter();
    const [a, b, c, d] = [tempFile('a.ndjson'), tempFile('b.ndjson'), tempFile('c.ndjson'), tempFile('d.ndjson')];
    const first = [writer.append(a.fd, Buffer.from('a\n'), 0, false), writer.append(b.fd, Buffer.from('b\n'), 0, false)];
    // The microtask that sent the first two as one batch has run; the thread has not answered (that takes a turn).
    await Promise.resolve();
    const waiting = [writer.append(c.fd, Buffer.from('c\n'), 0, false), writer.append(d.fd, Buffer.from('d\n'), 0, false)];
    await Promise.all([...first, ...waiting]);
    expect([a, b, c, d].map(({ path }) => readFileSync(path, 'utf8'))).toEqual(['a\n', 'b\n', 'c\n', 'd\n']);
  });

  it('writes a lone record asked for while another is in the pool once that write is done, with nothing more asked for', async () => {
    const writer = new JournalWriter();
    const a = tempFile('pool-a.ndjson');
    const b = tempFile('pool-b.ndjson');
    const first = writer.append(a.fd, Buffer.from('a\n'), 0, false);
    // The microtask that handed the first record to the pool has run; the pool has not answered (that takes a turn).
    await Promise.resolve();
    const waiting = writer.append(b.fd, Buffer.from('b\n'), 0, false);
    await Promise.all([first, waiting]);
    expect([a, b].map(({ path }) => readFileSync(path, 'utf8'))).toEqual(['a\n', 'b\n']);
  });

  it('writes every record of many journals asked for turn after turn while a batch is at the writer thread, each journal in order', async () => {
    const writer = new JournalWriter();
    const files = Array.from({ length: 8 }, (_, i) => tempFile(`busy-${i}.ndjson`));
    // Like busy workspaces: each journal sends its next record once the last one is written,
    // and the journals start in different turns, so records keep arriving while a batch is away.
    await Promise.all(
      files.map(async ({ fd }, i) => {
        for (let k = 0; k < i; k++) await new Promise((resolve) => setImmediate(resolve));
        let position = 0;
        for (let k = 0; k < 25; k++) {
          const line = Buffer.from(`${i}:${k}\n`);
          await writer.append(fd, line, position, false);
          position += line.length;
        }
      }),
    );
    for (const [i, { path }] of files.entries()) expect(readFileSync(path, 'utf8')).toBe(Array.from({ length: 25 }, (_, k) => `${i}:${k}\n`).join(''));
  });

  it('does not keep the process alive once its records are written (a child process exits by itself)', async () => {
    const { path } = tempFile('exit.ndjson');
    const script = `
      import { openSync } from 'node:fs';
      import { JournalWriter } from ${JSON.stringify(new URL('../../dist/store/journal-writer.js', import.meta.url).pathname)};
      await new JournalWriter().append(openSync(${JSON.stringify(path)}, 'r+'), Buffer.from('done\\n'), 0, false);
    `;
    // The built module (npm test builds first), as the CLI runs it.
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { timeout: 10_000, encoding: 'utf8' });
    expect(run.error).toBeUndefined();
    expect(run.status).toBe(0);
    expect(readFileSync(path, 'utf8')).toBe('done\n');
  });
});
