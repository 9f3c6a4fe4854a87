import { type Dirent, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_WORKSPACE, workspaceNameProblem } from './workspace-name.js';

/**
 * A workspace folder being removed is first renamed to `<name>@removed-<time>` (`@` is in no
 * workspace name, so it is never loaded as one), then deleted; start-up deletes any left.
 */
const TOMBSTONE = /^[A-Za-z0-9_.-]{1,64}@removed-\d+$/;

/**
 * Deletes workspace `name`'s folder so that a crash at any moment leaves it whole or gone: one
 * rename takes it out of the workspaces (atomic), then the renamed folder is deleted, which a
 * crash may leave half done for start-up to finish.
 */
export function removeFolder(folder: string, name: string): void {
  const tombstone = join(folder, `${name}@removed-${Date.now()}`);
  try {
    renameSync(join(folder, name), tombstone);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return; // never written: nothing on disk
    throw error;
  }
  rmSync(tombstone, { recursive: true, force: true });
}

/**
 * The workspaces stored in `folder` (`<data>/workspaces`), each with the time of its last
 * change; removals a crash (kill -9) interrupted are finished first (their tombstones deleted).
 */
export function storedWorkspaces(folder: string): Array<{ name: string; lastChange: number }> {
  let found: Dirent[];
  try {
    found = readdirSync(folder, { withFileTypes: true }).filter((entry) => entry.isDirectory());
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  for (const entry of found) if (TOMBSTONE.test(entry.name)) rmSync(join(folder, entry.name), { recursive: true, force: true });
  return found
    .filter((entry) => workspaceNameProblem(entry.name) === undefined && entry.name !== DEFAULT_WORKSPACE)
    .map((entry) => ({ name: entry.name, lastChange: newestChange(join(folder, entry.name)) }));
}

/** The time of the newest file in a workspace folder (the registry also counts its writes in the workspaces' journal). */
function newestChange(folder: string): number {
  let newest = 0;
  try {
    for (const name of readdirSync(folder)) newest = Math.max(newest, statSync(join(folder, name)).mtimeMs);
    newest = Math.max(newest, statSync(folder).mtimeMs);
  } catch {
    return Date.now();
  }
  return newest || Date.now();
}
