import { type Stats, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

type Stat = (path: string) => Pick<Stats, 'dev' | 'ino'> | undefined;

const statOrNothing: Stat = (path) => statSync(path, { throwIfNoEntry: false });

const swapCase = (name: string): string => name.replace(/[A-Za-z]/g, (letter) => (letter === letter.toLowerCase() ? letter.toUpperCase() : letter.toLowerCase()));

/**
 * Whether the file system that holds `folder` does not tell case apart (the default on macOS and
 * Windows), so that the folders `Worker-3` and `worker-3` would be one. Asked of the folder itself,
 * or of the nearest folder above it that exists: its name with the case of each letter swapped
 * names the same file (device and inode) only on such a file system. Without a letter in any name
 * of the path it cannot tell, and says no.
 *
 * @example foldsCase('/Users/me/.deposit-sandbox/workspaces') // true on macOS's default APFS
 */
export function foldsCase(folder: string, stat: Stat = statOrNothing): boolean {
  for (let path = folder; dirname(path) !== path; path = dirname(path)) {
    const found = stat(path);
    if (found === undefined) continue;
    const swapped = swapCase(basename(path));
    if (swapped === basename(path)) continue;
    const twin = stat(join(dirname(path), swapped));
    return twin !== undefined && twin.dev === found.dev && twin.ino === found.ino;
  }
  return false;
}

/** The name among `names` that differs from `name` only in case, if any. */
export function caseTwin(name: string, names: Iterable<string>): string | undefined {
  const folded = name.toLowerCase();
  for (const other of names) if (other !== name && other.toLowerCase() === folded) return other;
  return undefined;
}
