import { readdirSync } from 'node:fs';

export const journalName = (generation: number): string => `journal.${generation}.ndjson`;

const JOURNAL = /^journal\.(\d+)\.ndjson$/;

/** The journal generations in `folder` (`journal.<generation>.ndjson`), oldest first; none when there is no such folder. */
export function listGenerations(folder: string): number[] {
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  return names
    .map((name) => JOURNAL.exec(name)?.[1])
    .filter((generation): generation is string => generation !== undefined)
    .map(Number)
    .sort((a, b) => a - b);
}

/**
 * Splits the journal generations found on disk into those db.json (generation `base`)
 * continues with (`live`, which must be base, base+1, ... without a gap) and those it already
 * holds (`older`: left by a compaction that stopped after writing db.json, beside db.json's own
 * journal). Throws, naming both files, when db.json does not match the journals: a journal is
 * missing (db.json removed or older than the journals), or db.json is ahead of every journal
 * (damaged or restored from elsewhere). Nothing is deleted then.
 */
export function matchJournals(found: readonly number[], base: number, hasSnapshot: boolean): { live: number[]; older: number[] } {
  const live = found.filter((generation) => generation >= base);
  const older = found.filter((generation) => generation < base);
  live.forEach((generation, index) => {
    const expected = base + index;
    if (generation !== expected) {
      const snapshot = hasSnapshot ? `db.json is generation ${base}` : 'there is no db.json';
      throw new Error(
        `${snapshot} but the next journal is ${journalName(generation)} (${journalName(expected)} is missing), so changes in between are lost. ` +
          `db.json was probably removed or replaced by an older copy: restore the matching db.json, or move the journal.*.ndjson files away to start from db.json alone`,
      );
    }
  });
  const newestOlder = older.at(-1);
  if (newestOlder !== undefined && live[0] !== base) {
    throw new Error(
      `db.json says generation ${base} but the newest journal is ${journalName(newestOlder)} (and there is no ${journalName(base)}): ` +
        `db.json does not continue from the journals (a damaged or restored db.json). Nothing was loaded, changed or deleted. ` +
        `Restore the db.json that goes with ${journalName(newestOlder)}, or move the journal files away to start from db.json alone`,
    );
  }
  return { live, older };
}
