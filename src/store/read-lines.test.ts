import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { it } from '../../test/temp-folder.js';
import { readLines } from './read-lines.js';

/** A file holding `content` in `folder`. */
function file(folder: string, content: string | Buffer): string {
  const path = join(folder, 'f');
  writeFileSync(path, content);
  return path;
}

async function lines(path: string, chunkSize?: number) {
  const out: Array<[string, number, boolean]> = [];
  const size = await readLines(path, (bytes, offset, complete) => void out.push([bytes.toString(), offset, complete]), chunkSize);
  return { out, size };
}

describe('readLines', () => {
  it.for([1, 2, 3, 7, 1 << 20])('gives every line with its offset, whatever the chunk size (%i)', async (chunk, { folder }) => {
    const path = file(folder, 'alpha\n\nбета\ngamma-long-line\n');
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

  it('marks a last line without its newline as incomplete', async ({ folder }) => {
    expect((await lines(file(folder, 'one\ntw'), 4)).out).toEqual([
      ['one', 0, true],
      ['tw', 4, false],
    ]);
  });

  it('stops when the visitor returns false', async ({ folder }) => {
    const seen: string[] = [];
    await readLines(file(folder, 'a\nb\nc\n'), (bytes) => {
      seen.push(bytes.toString());
      return seen.length < 2;
    });
    expect(seen).toEqual(['a', 'b']);
  });

  it('visits nothing in an empty file and rejects for a missing one', async ({ folder }) => {
    expect(await lines(file(folder, ''))).toEqual({ out: [], size: 0 });
    await expect(readLines('/nonexistent/deposit-sandbox/file', () => true)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
