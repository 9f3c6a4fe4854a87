/**
 * cutTornRecord(): a torn record's bytes are copied aside before they are cut off the journal, and
 * a second call for the same record (a write that failed after the cut is tried again) leaves
 * that copy as it is.
 */
import { closeSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { it } from '../../test/temp-folder.js';
import { cutTornRecord, tornName } from './journal-replay.js';

it('copies the torn bytes aside, cuts them off, and a second cut of the same record keeps the copy', ({ folder }) => {
  const journal = join(folder, 'journal.0.ndjson');
  writeFileSync(journal, 'whole record\ntorn rec');
  const fd = openSync(journal, 'r+');
  try {
    cutTornRecord(fd, folder, 0, 13, 21);
    expect(readFileSync(journal, 'utf8')).toBe('whole record\n');
    expect(readFileSync(join(folder, tornName(0, 13)), 'utf8')).toBe('torn rec');
    cutTornRecord(fd, folder, 0, 13, 21);
    expect(readFileSync(journal, 'utf8')).toBe('whole record\n');
    expect(readFileSync(join(folder, tornName(0, 13)), 'utf8')).toBe('torn rec');
  } finally {
    closeSync(fd);
  }
});
