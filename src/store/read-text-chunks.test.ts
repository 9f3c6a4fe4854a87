import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readTextChunks } from './read-text-chunks.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function file(content: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'deposit-sandbox-chunks-'));
  dirs.push(dir);
  const path = join(dir, 'f');
  writeFileSync(path, content);
  return path;
}

async function chunks(path: string, size: number): Promise<string[]> {
  const out: string[] = [];
  await readTextChunks(path, (text) => void out.push(text), size);
  return out;
}

describe('readTextChunks', () => {
  it.each([1, 2, 5, 64])('gives whole lines only, never a character cut in two (chunk size %i)', async (size) => {
    const text = 'Иван Петров\n₽ 100\n\nlast line without newline';
    const got = await chunks(file(text), size);
    expect(got.join('')).toBe(text);
    for (const chunk of got.slice(0, -1)) expect(chunk.endsWith('\n')).toBe(true);
    expect(got.at(-1)).toBe('last line without newline');
  });

  it('stops when the visitor returns false', async () => {
    const seen: string[] = [];
    await readTextChunks(
      file('a\nb\nc\n'),
      (text) => {
        seen.push(text);
        return false;
      },
      2,
    );
    expect(seen).toEqual(['a\n']);
  });
});
