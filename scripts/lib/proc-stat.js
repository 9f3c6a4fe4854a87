// CPU times from Linux's /proc stat files (proc(5)), for the test runner, the per-file CPU of
// the tests and the bench. Imports nothing of the project, so a vitest worker that reads it
// loads nothing more.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** Clock ticks per second of /proc's CPU times (`getconf CLK_TCK`, asked once, when first needed; 100 on Linux as built). */
let clockTicks;
export const perSecond = () => (clockTicks ??= Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout) || 100);

/**
 * The fields of a stat file after the command name: [0] state, [1] ppid, [2] pgrp, [3] session,
 * ..., [11] utime, [12] stime, [13] cutime, [14] cstime. The name is cut at the last ")", as
 * proc(5) advises: a name may hold ") " itself. Throws where the file cannot be read.
 */
export function statFields(path) {
  const text = readFileSync(path, 'utf8');
  return text.slice(text.lastIndexOf(')') + 2).split(' ');
}

/** A stat file's [utime + stime, cutime + cstime], in clock ticks; undefined where there is no /proc. */
export function statTicks(path) {
  try {
    const fields = statFields(path);
    const own = Number(fields[11]) + Number(fields[12]);
    const children = Number(fields[13]) + Number(fields[14]);
    return Number.isFinite(own + children) ? [own, children] : undefined;
  } catch {
    return undefined;
  }
}

/**
 * CPU seconds (user + system) from a stat file (`/proc/self/stat`, or `/proc/thread-self/stat`
 * for one thread): `own`, and `children`, those of the children that have ended and been waited
 * for, each with everything it waited for in turn. Undefined where there is no /proc.
 */
export function statCpu(path = '/proc/self/stat') {
  const counted = statTicks(path);
  return counted === undefined ? undefined : { own: counted[0] / perSecond(), children: counted[1] / perSecond() };
}
