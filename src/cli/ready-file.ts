import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';

/**
 * Writes `{"url": ..., "pid": ...}` to `path` atomically (a temp file beside it, renamed over
 * it), so a reader never sees half a file. Returns a function that removes it; it is also
 * removed when the process exits (only while it still holds this process's pid).
 */
export function writeReadyFile(path: string, url: string): () => void {
  const file = resolve(path);
  const temp = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(temp, `${JSON.stringify({ url, pid: process.pid })}\n`);
    renameSync(temp, file);
  } catch (error) {
    rmSync(temp, { force: true });
    throw new Error(`Cannot write the --ready-file ${file}: ${(error as Error).message}. Pass a path in a folder that exists and is writable.`, { cause: error });
  }
  let removed = false;
  const remove = () => {
    if (removed) return;
    removed = true;
    try {
      // Another sandbox may have taken the path since: remove only our own file.
      if ((JSON.parse(readFileSync(file, 'utf8')) as { pid?: unknown }).pid === process.pid) rmSync(file, { force: true });
    } catch {
      // Gone or replaced by something else: nothing of ours to remove.
    }
  };
  process.once('exit', remove);
  return remove;
}
