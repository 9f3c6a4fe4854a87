import { readFileSync, statSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';

/** Who holds the lock on a data folder: the file, and its name in the data folder. */
export const HOLDER_NAME = 'lock.json';

/**
 * The holder file: PID, host, listening URL, when it started, the process's start time as the
 * kernel counts it (Linux: field 22 of /proc/<pid>/stat, which tells a PID reused by another
 * program from the holder), and a random token that names this holding (a holder recognises
 * a file written by someone else by it). Files written by earlier versions have no token or start.
 */
export const holderSchema = z.object({
  pid: z.number().int(),
  hostname: z.string(),
  url: z.string().optional(),
  since: z.string().catch(''),
  start: z.string().optional(),
  token: z.string().optional(),
});

export type Holder = z.infer<typeof holderSchema>;

/** A holder on another host (or container) that has not refreshed its file for this long is gone. */
export const STALE_MS = 10_000;

/** The holder file of `folder`, with its age (ms since its mtime), or undefined when there is none or it is unreadable. */
export function readHolder(folder: string): { holder: Holder; age: number } | undefined {
  const path = join(folder, HOLDER_NAME);
  // Written in place by its holder (the URL once listening): a read that meets a half-written file tries again.
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const age = Date.now() - statSync(path).mtimeMs;
      const parsed = holderSchema.safeParse(JSON.parse(readFileSync(path, 'utf8')));
      if (parsed.success) return { holder: parsed.data, age };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    }
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
  }
  return undefined;
}

/** Why a recorded holder is certainly gone, or undefined when it may be running. */
export function holderGone(holder: Holder, age: number): string | undefined {
  if (holder.hostname !== hostname()) {
    // Another host or container: its PID means nothing here; only the refreshed mtime says it runs.
    return age > STALE_MS ? `on ${holder.hostname}, which has not refreshed it for ${Math.round(age / 1000)} s` : undefined;
  }
  // Our own PID from an earlier life (a container's PID 1 after a restart): not us, since this process holds no lock on it.
  if (holder.pid === process.pid) return 'which is no longer running';
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    // EPERM: it runs, as another user.
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return 'which is no longer running';
  }
  if (processState(holder.pid) === 'Z') return 'which is no longer running';
  const start = processStart(holder.pid);
  if (holder.start !== undefined && start !== undefined && start !== holder.start) return 'whose process ID now belongs to another program';
  return undefined;
}

/** Linux: a process's start time in clock ticks since boot (never the same for two processes with one PID). */
export function processStart(pid: number): string | undefined {
  return statField(pid, 19);
}

/** Linux: a process's state letter (Z: killed, not yet reaped by its parent, so its PID still answers). */
export function processState(pid: number): string | undefined {
  return statField(pid, 0);
}

/** Field `index` of /proc/<pid>/stat after the command name (0: state, 19: start time); undefined where there is no /proc. */
function statField(pid: number, index: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    // The command name, in parentheses, may itself hold spaces and parentheses: count from the last ')'.
    return stat
      .slice(stat.lastIndexOf(')') + 2)
      .split(' ')
      [index]?.trim();
  } catch {
    return undefined;
  }
}

/** "process 41873, listening on http://…" (with the host when it is another). */
export function describeHolder(holder: Holder | undefined): string {
  if (!holder) return 'a process that has not said who it is yet';
  const where = holder.hostname === hostname() ? '' : ` on ${holder.hostname}`;
  return `process ${holder.pid}${where}, ${holder.url ? `listening on ${holder.url}` : 'still starting'}`;
}

/**
 * Who left a lock that is taken over, for the notice: "process 41873", or, when the holder had this
 * process's own ID on this host, an earlier run under that ID. A container runs the sandbox as
 * process 1 every time it starts, so a container started again after a crash finds a lock "of
 * process 1": its own previous run, not another program. `pid` is for tests.
 */
export function formerHolder(holder: Holder, pid: number = process.pid): string {
  if (holder.pid !== pid || holder.hostname !== hostname()) return `process ${holder.pid}`;
  if (pid === 1) return "the sandbox's previous run in this container (or in an earlier container on this folder: a container runs the sandbox as process 1 each time)";
  return `an earlier sandbox that had this process's ID (${pid})`;
}

/** How to stop the holder: `kill <pid>` on this host. */
export function stopHolder(holder: Holder | undefined): string {
  return holder && holder.hostname === hostname() ? `stop the other one (kill ${holder.pid})` : 'stop the other one';
}
