import { spawnSync } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect } from 'vitest';
import { it } from '../../test/temp-folder.js';
import { encodeRecord } from './journal-record.js';
import { JournalWriter } from './journal-writer.js';
import type { Change } from './table.js';

/** What a test opened, closed after it (its folder is removed by the fixture). */
const cleanup: Array<() => void> = [];
afterEach(() => {
  for (const step of cleanup.splice(0).reverse()) step();
});

/** A new file `name` in `folder`, open for reading and writing. */
function tempFile(folder: string, name: string): { path: string; fd: number } {
  const path = join(folder, name);
  const fd = openSync(path, 'w+');
  cleanup.push(() => closeSync(fd));
  return { path, fd };
}

/** A group commit of one row named `name`. */
const rec = (name: string): Change[] => [{ op: 'put', table: 'trades', record: { id: name } }];
/** The journal line of a group commit (journal-record.ts). */
const framed = (changes: readonly Change[]): string => encodeRecord(changes).toString();
/** Its bytes: where the next record of the same journal goes. */
const size = (changes: readonly Change[]): number => encodeRecord(changes).length;

describe('JournalWriter', () => {
  it('writes the records of many files asked for in one turn, each at its position, and the next turn after them', async ({ folder }) => {
    const writer = new JournalWriter();
    const files = Array.from({ length: 20 }, (_, i) => tempFile(folder, `journal-${i}.ndjson`));
    const first = (i: number) => rec(`first ${i} сделка`);
    const second = (i: number) => rec(`second ${i}`);
    const lengths = await Promise.all(files.map(({ fd }, i) => writer.append(fd, first(i), 0, false)));
    expect(lengths).toEqual(files.map((_, i) => size(first(i))));
    await Promise.all(files.map(({ fd }, i) => writer.append(fd, second(i), size(first(i)), i % 2 === 0)));
    for (const [i, { path }] of files.entries()) expect(readFileSync(path, 'utf8')).toBe(framed(first(i)) + framed(second(i)));
  });

  it('writes each record exactly as encodeRecord frames it (non-ASCII, escapes, a lone surrogate), and answers their lengths', async ({ folder }) => {
    const writer = new JournalWriter();
    const changes: Change[][] = [
      [{ op: 'put', table: 'trades', record: { id: 'a', requisites: { name: 'Анна С.', bank_name: 'Райффайзенбанк' } } as never }],
      [{ op: 'put', table: 'trades', record: { id: 'b', note: 'quote " backslash \\ newline \n tab \t \u0000 emoji 💳 lone \ud800' } as never }],
      [{ op: 'delete', table: 'jobs', id: 'c' }, { op: 'clear' }],
    ];
    const files = changes.map((_, i) => tempFile(folder, `framed-${i}.ndjson`));
    // Asked for in one turn: written one after another.
    const lengths = await Promise.all(files.map(({ fd }, i) => writer.append(fd, changes[i]!, 0, false)));
    for (const [i, { path }] of files.entries()) {
      const bytes = readFileSync(path);
      expect(bytes.equals(encodeRecord(changes[i]!))).toBe(true);
      expect(lengths[i]).toBe(bytes.length);
    }
  });

  it('refuses only the record whose write failed, with the system error code; the others asked for with it are written', async ({ folder }) => {
    const writer = new JournalWriter();
    const good = tempFile(folder, 'good.ndjson');
    const closed = tempFile(folder, 'closed.ndjson');
    const readOnly = openSync(closed.path, 'r');
    cleanup.push(() => closeSync(readOnly));
    const [ok, refused] = await Promise.allSettled([writer.append(good.fd, rec('kept'), 0, false), writer.append(readOnly, rec('lost'), 0, false)]);
    expect(ok.status).toBe('fulfilled');
    expect(refused.status).toBe('rejected');
    expect((refused as PromiseRejectedResult).reason).toMatchObject({ code: 'EBADF', syscall: 'write' });
    expect(readFileSync(good.path, 'utf8')).toBe(framed(rec('kept')));
    expect(readFileSync(closed.path, 'utf8')).toBe('');
  });

  it('writes a record asked for alone at its position, and with fdatasync when asked', async ({ folder }) => {
    const writer = new JournalWriter();
    const { path, fd } = tempFile(folder, 'alone.ndjson');
    await writer.append(fd, rec('первая'), 0, false);
    await writer.append(fd, rec('second'), size(rec('первая')), true);
    expect(readFileSync(path, 'utf8')).toBe(framed(rec('первая')) + framed(rec('second')));
  });

  it('refuses a record asked for alone with the system error code, and writes the next one', async ({ folder }) => {
    const writer = new JournalWriter();
    const { path } = tempFile(folder, 'alone-refused.ndjson');
    const readOnly = openSync(path, 'r');
    cleanup.push(() => closeSync(readOnly));
    await expect(writer.append(readOnly, rec('lost'), 0, false)).rejects.toMatchObject({ code: 'EBADF', syscall: 'write' });
    const good = tempFile(folder, 'after.ndjson');
    await writer.append(good.fd, rec('kept'), 0, false);
    expect(readFileSync(path, 'utf8')).toBe('');
    expect(readFileSync(good.path, 'utf8')).toBe(framed(rec('kept')));
  });

  it('refuses a record whose changes JSON cannot hold (a BigInt) and goes on with the records asked for after it', async ({ folder }) => {
    const writer = new JournalWriter();
    const { path, fd } = tempFile(folder, 'unwritable.ndjson');
    const [refused, kept] = await Promise.allSettled([writer.append(fd, [{ op: 'put', table: 'trades', record: { id: 'x', amount: 1n } }], 0, false), writer.append(fd, rec('kept'), 0, false)]);
    expect(refused).toMatchObject({ status: 'rejected', reason: expect.any(TypeError) });
    expect(kept.status).toBe('fulfilled');
    expect(readFileSync(path, 'utf8')).toBe(framed(rec('kept')));
  });

  it('writes lone records of two journals asked for in two turns, the first perhaps still under way, each at its position', async ({ folder }) => {
    const writer = new JournalWriter();
    const a = tempFile(folder, 'a.ndjson');
    const b = tempFile(folder, 'b.ndjson');
    const first = writer.append(a.fd, rec('a1'), 0, false);
    // The next turn: the first record may still be in the pool.
    await new Promise((resolve) => setImmediate(resolve));
    const second = writer.append(b.fd, rec('b1'), 0, false);
    await Promise.all([first, second]);
    await writer.append(a.fd, rec('a2'), size(rec('a1')), false);
    expect(readFileSync(a.path, 'utf8')).toBe(framed(rec('a1')) + framed(rec('a2')));
    expect(readFileSync(b.path, 'utf8')).toBe(framed(rec('b1')));
  });

  it('writes a lone record asked for while another is in the pool once that write is done, with nothing more asked for', async ({ folder }) => {
    const writer = new JournalWriter();
    const a = tempFile(folder, 'pool-a.ndjson');
    const b = tempFile(folder, 'pool-b.ndjson');
    const first = writer.append(a.fd, rec('a'), 0, false);
    // The first record's write is in the pool (handed over by append itself); the pool answers in a later turn.
    await Promise.resolve();
    const waiting = writer.append(b.fd, rec('b'), 0, false);
    await Promise.all([first, waiting]);
    expect([a, b].map(({ path }) => readFileSync(path, 'utf8'))).toEqual([rec('a'), rec('b')].map(framed));
  });

  it('writes every record of many journals asked for turn after turn while other writes are under way, each journal in order', async ({ folder }) => {
    const writer = new JournalWriter();
    const files = Array.from({ length: 8 }, (_, i) => tempFile(folder, `busy-${i}.ndjson`));
    const text = (i: number, k: number) => rec(`${i}:${k}`);
    // Like busy workspaces: each journal sends its next record once the last one is written,
    // and the journals start in different turns, so records keep arriving while one is being written.
    await Promise.all(
      files.map(async ({ fd }, i) => {
        for (let k = 0; k < i; k++) await new Promise((resolve) => setImmediate(resolve));
        let position = 0;
        for (let k = 0; k < 25; k++) {
          await writer.append(fd, text(i, k), position, false);
          position += size(text(i, k));
        }
      }),
    );
    for (const [i, { path }] of files.entries()) expect(readFileSync(path, 'utf8')).toBe(Array.from({ length: 25 }, (_, k) => framed(text(i, k))).join(''));
  });

  it('does not keep the process alive once its records are written (a child process exits by itself)', async ({ folder }) => {
    const { path } = tempFile(folder, 'exit.ndjson');
    const script = `
      import { openSync } from 'node:fs';
      import { JournalWriter } from ${JSON.stringify(new URL('../../dist/store/journal-writer.js', import.meta.url).pathname)};
      const rec = (name) => [{ op: 'put', table: 'trades', record: { id: name } }];
      const writer = new JournalWriter();
      const fd = openSync(${JSON.stringify(path)}, 'r+');
      await writer.append(fd, rec('alone'), 0, false);
      // Two journals' records in one turn, written one after the other: nothing may hold the process after them.
      await Promise.all([writer.append(fd, rec('one'), ${JSON.stringify(size(rec('alone')))}, false), writer.append(openSync(${JSON.stringify(`${path}.2`)}, 'w+'), rec('two'), 0, false)]);
    `;
    // The built module (npm test builds first), as the CLI runs it.
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { timeout: 10_000, encoding: 'utf8' });
    expect(run.error).toBeUndefined();
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(readFileSync(path, 'utf8')).toBe(framed(rec('alone')) + framed(rec('one')));
    expect(readFileSync(`${path}.2`, 'utf8')).toBe(framed(rec('two')));
  });
});
