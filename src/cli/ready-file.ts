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

/** What a ready file says, or why it does not (yet) name a running sandbox. */
export type ReadyFileContent = { url: string; pid: number } | { problem: string };

const running = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** Reads a ready file written by `serve --ready-file`; a file of a process that is gone is no answer. */
export function readReadyFile(path: string): ReadyFileContent {
  const file = resolve(path);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { problem: code === 'ENOENT' ? `the ready file ${file} does not exist yet` : `cannot read the ready file ${file}: ${(error as Error).message}` };
  }
  let content: { url?: unknown; pid?: unknown };
  try {
    content = JSON.parse(text) as { url?: unknown; pid?: unknown };
  } catch {
    return { problem: `the ready file ${file} is not the JSON that serve --ready-file writes ({"url": ..., "pid": ...})` };
  }
  if (typeof content?.url !== 'string' || typeof content.pid !== 'number') return { problem: `the ready file ${file} has no "url" and "pid" (serve --ready-file writes both)` };
  if (!running(content.pid)) return { problem: `the ready file ${file} names process ${content.pid}, which is not running (left by a sandbox that did not stop cleanly?)` };
  return { url: content.url, pid: content.pid };
}

/**
 * Resolves with the sandbox a ready file names, once the file exists and its process runs
 * (checked every `intervalMs`); rejects after `timeoutMs` with the last problem.
 */
export async function waitForReadyFile(path: string, timeoutMs: number, intervalMs = 100): Promise<{ url: string; pid: number }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const content = readReadyFile(path);
    if ('url' in content) return content;
    const left = deadline - Date.now();
    if (left <= 0)
      throw new Error(`No sandbox within ${timeoutMs % 1000 === 0 ? `${timeoutMs / 1000}s` : `${timeoutMs}ms`}: ${content.problem}. Start it with --ready-file ${path}, or raise --timeout.`);
    await new Promise((done) => setTimeout(done, Math.min(intervalMs, left)));
  }
}
