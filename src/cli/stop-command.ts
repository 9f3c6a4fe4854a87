import { existsSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import { clientFor, withTarget, type SandboxTarget } from '../admin-client/sandbox-target.js';
import { DURATION_HINT, formatDuration, parseDuration } from '../clock/duration.js';
import { processState, readHolder } from '../store/lock-holder.js';
import { readReadyFile } from './ready-file.js';

export interface StopOptions {
  /** How long to wait for the sandbox to be gone, e.g. "30s" (default). */
  timeout?: string;
  /** The file `serve --ready-file` wrote: the sandbox's URL and process. */
  readyFile?: string | undefined;
}

/** What a stop needs: the process to signal, and the data folder whose lock it holds (none in memory). */
interface Stoppable {
  pid: number;
  url: string;
  folder: string | undefined;
}

const POLL_MS = 50;

/** The process runs (a zombie, exited but not yet reaped by its parent, does not). */
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  return processState(pid) !== 'Z';
};

/**
 * `deposit-sandbox stop`: sends the sandbox SIGTERM (its clean stop: requests in flight are
 * answered, the store is saved, the data folder freed) and returns once its process is gone and
 * its data folder's lock is released, so the next step of a script can start another sandbox on
 * the same port and folder. Throws (exit 1) after the timeout, naming what it still waits for.
 *
 * The sandbox is found through its ready file (`serve --ready-file`), or through --url: then the
 * sandbox must run on this machine with a data folder (its lock file names the process); a
 * sandbox in a container is stopped by the container runtime (`podman stop`), which sends the
 * same SIGTERM.
 */
export async function stopCommand(given: SandboxTarget, options: StopOptions = {}, write: (text: string) => void = (text) => process.stdout.write(text)): Promise<void> {
  const timeoutMs = options.timeout === undefined ? 30_000 : parseDuration(options.timeout);
  if (timeoutMs === undefined || timeoutMs <= 0) throw new Error(`--timeout must be ${DURATION_HINT}, longer than 0; got ${JSON.stringify(options.timeout)}.`);
  if (options.readyFile !== undefined && given.source === 'flag') throw new Error(`Pass --url or --ready-file, not both: --ready-file ${options.readyFile} names the sandbox itself.`);
  const target = options.readyFile !== undefined ? await fromReadyFile(options.readyFile, given) : await fromUrl(given);
  const started = Date.now();
  process.kill(target.pid, 'SIGTERM');
  for (;;) {
    const running = alive(target.pid);
    const locked = target.folder !== undefined && readHolder(target.folder)?.holder.pid === target.pid;
    if (!running && !locked) break;
    if (Date.now() - started >= timeoutMs) {
      throw new Error(
        `The sandbox at ${target.url} (process ${target.pid}) is ${running ? 'still running' : 'gone, but its data folder is still locked'} after ${formatDuration(timeoutMs)}: it may be waiting for requests in flight (--shutdown-timeout). Raise --timeout, or send it another SIGTERM to close every connection at once.`,
      );
    }
    await new Promise((done) => setTimeout(done, POLL_MS));
  }
  write(`Stopped the sandbox at ${target.url} (process ${target.pid}) in ${formatDuration(Date.now() - started)}${target.folder !== undefined ? `; ${target.folder} is free` : ''}.\n`);
}

async function fromReadyFile(path: string, given: SandboxTarget): Promise<Stoppable> {
  const ready = readReadyFile(path);
  if ('problem' in ready) throw new Error(`Nothing to stop: ${ready.problem}.`);
  return { pid: ready.pid, url: ready.url, folder: await storeFolder({ ...given, url: ready.url, source: 'ready-file', readyFile: path }) };
}

async function fromUrl(target: SandboxTarget): Promise<Stoppable> {
  const folder = await storeFolder(target);
  const url = target.url.replace(/\/+$/, '');
  const holder = folder !== undefined ? readHolder(folder)?.holder : undefined;
  if (folder === undefined || holder === undefined || holder.hostname !== hostname()) {
    const where = folder === undefined ? 'keeps its store in memory or in a folder this machine cannot see' : `keeps its data folder ${folder} on another host or in a container`;
    throw new Error(
      `The sandbox at ${url} ${where}, so this machine cannot tell which process it is. Stop it with --ready-file <the file serve --ready-file wrote>, or with the container runtime (podman stop / docker stop), which sends the same SIGTERM.`,
    );
  }
  return { pid: holder.pid, url, folder };
}

/** The data folder of the sandbox at the target, when it keeps one on this machine. */
async function storeFolder(target: SandboxTarget): Promise<string | undefined> {
  let store: string | undefined;
  try {
    store = (await clientFor(target, { timeoutMs: 5_000 }).health()).store;
  } catch (error) {
    if (target.source === 'ready-file') return undefined; // the process is still signalled; only the folder check is lost
    throw withTarget(error, target);
  }
  if (store === undefined || store === 'memory') return undefined;
  const folder = dirname(store);
  return existsSync(folder) ? folder : undefined;
}
