import { describe, expect } from 'vitest';
import { it } from '../../test/temp-folder.js';
import { caseTwin, foldsCase } from './case-folding.js';

/** A file system of the given paths (each with its own inode), folding case or not. */
function fakeStat(paths: string[], folds: boolean) {
  const key = (path: string) => (folds ? path.toLowerCase() : path);
  const inodes = new Map(paths.map((path, index) => [key(path), index + 1]));
  return (path: string) => {
    const ino = inodes.get(key(path));
    return ino === undefined ? undefined : { dev: 1, ino };
  };
}

describe('foldsCase', () => {
  it('tells a file system that folds case from one that does not, from the folder or the nearest one above it that exists', () => {
    const paths = ['/home', '/home/me', '/home/me/.deposit-sandbox'];
    expect(foldsCase('/home/me/.deposit-sandbox/workspaces', fakeStat(paths, true))).toBe(true);
    expect(foldsCase('/home/me/.deposit-sandbox/workspaces', fakeStat(paths, false))).toBe(false);
    // A name with no letter says nothing: the next one up is asked.
    expect(foldsCase('/home/me/1234', fakeStat([...paths, '/home/me/1234'], true))).toBe(true);
    expect(foldsCase('/1/2', fakeStat(['/1', '/1/2'], true))).toBe(false);
  });

  it('says no on this machine’s temporary folder when it tells case apart (Linux file systems do)', ({ folder }) => {
    if (process.platform === 'linux') expect(foldsCase(folder)).toBe(false);
  });
});

describe('caseTwin', () => {
  it('finds the other name that differs only in case, never the name itself', () => {
    expect(caseTwin('worker-3', ['Worker-3', 'other'])).toBe('Worker-3');
    expect(caseTwin('worker-3', ['worker-3', 'other'])).toBeUndefined();
    expect(caseTwin('worker-3', [])).toBeUndefined();
  });
});
