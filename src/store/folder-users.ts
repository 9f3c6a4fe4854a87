import { readdirSync, readlinkSync } from 'node:fs';

/**
 * The processes (other than this one) that hold `folder` itself open, found as `fuser` finds
 * them: through the links in /proc/<pid>/fd. A lock holder keeps its data folder open for as long
 * as it runs, so even when every lock file was deleted by hand a second process still finds it.
 * Linux only (elsewhere, and for other users' processes, it finds nothing). It reads a link per
 * open file of every process, so the lock asks only when the lock files are missing from a
 * folder that holds data.
 */
export function folderUsers(folder: string): number[] {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name) && Number(name) !== process.pid);
  } catch {
    return [];
  }
  const users: number[] = [];
  for (const pid of pids) {
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        if (readlinkSync(`/proc/${pid}/fd/${fd}`) === folder) {
          users.push(Number(pid));
          break;
        }
      } catch {
        // Closed meanwhile.
      }
    }
  }
  return users;
}
