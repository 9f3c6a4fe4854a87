/**
 * vitest's `test` (and `it`) with a temporary folder as a fixture: a new empty folder under the
 * system's temporary folder, made when a test (or hook) asks for it and removed, with all it
 * holds, when that test (or file) is done, passed or failed.
 *
 *   - `folder`: one test's own: `it('...', async ({ folder }) => { ... })`;
 *   - `fileFolder`: one for the file's tests together, for what a `test.beforeAll` starts on it
 *     (a shared sandbox's data folder): `test.beforeAll(({ fileFolder }) => ...)`.
 *
 * A test that needs several folders makes them inside its own: `folderIn(folder)`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test as base } from 'vitest';

/** A new folder, removed (recursively) by `onCleanup`. */
function made(onCleanup: (cleanup: () => void) => void): string {
  const folder = mkdtempSync(join(tmpdir(), 'deposit-sandbox-test-'));
  onCleanup(() => rmSync(folder, { recursive: true, force: true }));
  return folder;
}

export const test = base
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads the fixtures a fixture depends on from this pattern
  .extend('folder', async ({}, { onCleanup }) => made(onCleanup))
  // biome-ignore lint/correctness/noEmptyPattern: as above
  .extend('fileFolder', { scope: 'file' }, async ({}, { onCleanup }) => made(onCleanup));

export const it = test;

/** A new empty folder inside `folder` (a test's or the file's), removed with it. */
export function folderIn(folder: string): string {
  return mkdtempSync(join(folder, 'folder-'));
}
