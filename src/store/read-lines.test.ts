import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readLines } from './read-lines.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function file(content: string | Buffer): string {
  const dir = mkdtempSync(join(tmpdir(), 'deposit-sandbox-lines-'));
  dirs.push(dir);
  const path = join(dir, 'f');
  writeFileSync(path, content);
  return path;
}

async function lines(path: string, chunkSize?: number) {
  const out: Array<[string, number, boolean]> = [];
  const size = await readLines(path, (bytes, offset, complete) => void out.push([bytes.toString(), offset, complete]), chunkSize);
  return { out, size };
}

describe('readLines', () => {
  it.each([1, 2, 3, 7, 1 << 20])('gives every line with its offset, whatever the chunk size (%i)', async (chunk) => {
    const path = file('alpha\n\nбета\ngamma-long-line\n');
    expect(await lines(path, chunk)).toEqual({
      out: [
        ['alpha', 0, true],
        ['', 6, true],
        ['бета', 7, true],
        ['gamma-long-line', 16, true],
      ],
      size: 32,
    });
  });

  it('marks a last line without its newline as incomplete', async () => {
    expect((await lines(file('one\ntw'), 4)).out).toEqual([
      ['one', 0, true],
      ['tw', 4, false],
    ]);
  });

  it('stops when the visitor returns false', async () => {
    const seen: string[] = [];
    await readLines(file('a\nb\nc\n'), (bytes) => {
      seen.push(bytes.toString());
      return seen.length < 2;
    });
    expect(seen).toEqual(['a', 'b']);
  });

  it('visits nothing in an empty file and rejects for a missing one', async () => {
    expect(await lines(file(''))).toEqual({ out: [], size: 0 });
    await expect(readLines('/nonexistent/deposit-sandbox/file', () => true)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
