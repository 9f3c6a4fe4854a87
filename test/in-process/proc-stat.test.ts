/**
 * scripts/lib/proc-stat.js: the CPU times of a /proc stat file, read after the command name, which
 * is cut at its last ")" (a name may hold ") " itself, proc(5)).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { it } from '../temp-folder.js';
// @ts-expect-error: a plain JavaScript module of the scripts, without types
import { statFields, statTicks } from '../../scripts/lib/proc-stat.js';

it('reads the fields after a command name that holds ") " itself', ({ folder }) => {
  const stat = join(folder, 'stat');
  // pid (name) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime cutime cstime ...
  writeFileSync(stat, '4242 (a) b (c)) S 1 4242 4242 0 -1 4194560 100 0 0 0 7 3 20 5 20 0 1 0\n');
  expect(statFields(stat).slice(0, 4)).toEqual(['S', '1', '4242', '4242']);
  expect(statTicks(stat)).toEqual([10, 25]);
});

it('says nothing (undefined) for a file it cannot read', ({ folder }) => {
  expect(statTicks(join(folder, 'missing'))).toBeUndefined();
});
