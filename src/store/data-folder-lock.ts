import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join, resolve } from 'node:path';
import lockfile from 'proper-lockfile';
import { notWritable } from './storage-error.js';
import { StoreError } from './store-loader.js';

/** The lock itself: a folder made atomically by proper-lockfile (mkdir), its mtime kept fresh. */
export const LOCK_NAME = '.lock';
/** Who holds the lock: PID, host, listening URL. Written beside the lock, read by a refused process. */
export const HOLDER_NAME = 'lock.json';
/** A lock whose mtime has not been refreshed for this long belongs to a process that is gone. */
const STALE_MS = 10_000;
const UPDATE_MS = 2_000;

interface Holder {
  pid: number;
  hostname: string;
  url?: string;
  since: string;
}

/** Folders this process holds (a second startSandbox() on the same folder is refused too). */
const held = new Set<string>();
let exitHook = false;

/** A process that exits without close() (proper-lockfile removes `.lock/` then): remove lock.json too. */
function removeHoldersOnExit(): void {
  if (exitHook) return;
  exitHook = true;
  process.once('exit', () => {
    for (const folder of held) rmSync(join(folder, HOLDER_NAME), { force: true });
  });
}

/**
 * One process per data folder. The first process holds `<folder>/.lock` for as long as it
 * runs (proper-lockfile: an atomic mkdir whose mtime is refreshed every 2 s) and writes who it
 * is to `<folder>/lock.json`. Another process on the same folder is refused with a message
 * naming the holder. A lock left by a process that died is taken over with a notice: at once
 * when the recorded PID no longer runs on this host, otherwise once the lock has not been
 * refreshed for 10 s (a holder on another host or container). A live holder is never taken over.
 */
export class DataFolderLock {
  readonly folder: string;
  readonly #release: () => Promise<void>;
  #holder: Holder;
  #released: Promise<void> | undefined;

  private constructor(folder: string, release: () => Promise<void>, holder: Holder) {
    this.folder = folder;
    this.#release = release;
    this.#holder = holder;
  }

  /** Takes the lock on `dir` (creating the folder), or throws a StoreError that names the holder. */
  static async acquire(dir: string, notice: (message: string) => void = (message) => process.stderr.write(`deposit-sandbox: ${message}\n`)): Promise<DataFolderLock> {
    const folder = resolve(dir);
    try {
      mkdirSync(folder, { recursive: true });
    } catch (error) {
      throw new StoreError(notWritable(folder, 'the data folder', error));
    }
    const options = {
      lockfilePath: join(folder, LOCK_NAME),
      realpath: false,
      stale: STALE_MS,
      update: UPDATE_MS,
      retries: 0,
      onCompromised: (error: Error) => notice(`the lock on the data folder ${folder} was lost (${error.message}); another process may now use this folder.`),
    };
    const previous = readHolder(folder);
    if (held.has(folder)) throw new StoreError(refusal(folder, previous));
    const take = () =>
      lockfile.lock(folder, options).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ELOCKED') return undefined;
        throw new StoreError(notWritable(folder, 'the data folder', error));
      });
    let release = await take();
    let tookOver = false;
    if (!release) {
      const holder = readHolder(folder);
      if (!holder || !gone(holder)) throw new StoreError(refusal(folder, holder));
      notice(`took over the lock on the data folder ${folder} left by process ${holder.pid}, which is no longer running.`);
      rmSync(options.lockfilePath, { recursive: true, force: true });
      tookOver = true;
      release = await take();
      if (!release) throw new StoreError(refusal(folder, readHolder(folder)));
    }
    if (previous && !tookOver) {
      // The lock was free or stale (proper-lockfile took it over): a holder that did not stop cleanly.
      notice(
        `took over a stale lock on the data folder ${folder} left by process ${previous.pid}${previous.hostname === hostname() ? '' : ` on ${previous.hostname}`}, which stopped without releasing it.`,
      );
    }
    held.add(folder);
    removeHoldersOnExit();
    const self = new DataFolderLock(folder, release, { pid: process.pid, hostname: hostname(), since: new Date().toISOString() });
    self.#write();
    return self;
  }

  /** Records the address the holder listens on, for the message another process gets. */
  listening(url: string): void {
    this.#holder = { ...this.#holder, url };
    this.#write();
  }

  /** Releases the lock (safe to call twice). */
  release(): Promise<void> {
    this.#released ??= (async () => {
      rmSync(join(this.folder, HOLDER_NAME), { force: true });
      held.delete(this.folder);
      await this.#release().catch(() => undefined);
    })();
    return this.#released;
  }

  /** Best effort: a full disk must not stop the holder; the refusal then names no URL. */
  #write(): void {
    try {
      writeFileSync(join(this.folder, HOLDER_NAME), `${JSON.stringify(this.#holder)}\n`);
    } catch {
      // The lock itself holds; only the description is missing.
    }
  }
}

function readHolder(folder: string): Holder | undefined {
  try {
    const value = JSON.parse(readFileSync(join(folder, HOLDER_NAME), 'utf8')) as Partial<Holder>;
    if (typeof value.pid !== 'number' || typeof value.hostname !== 'string') return undefined;
    return { pid: value.pid, hostname: value.hostname, since: String(value.since ?? ''), ...(typeof value.url === 'string' ? { url: value.url } : {}) };
  } catch {
    return undefined;
  }
}

/** Whether the recorded holder is certainly not running: same host, and its PID is gone (or is ours, from an earlier life). */
function gone(holder: Holder): boolean {
  if (holder.hostname !== hostname()) return false;
  if (holder.pid === process.pid) return true;
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
  return zombie(holder.pid);
}

/** A process killed but not yet reaped by its parent still has its PID; on Linux its state says Z. */
function zombie(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) === 'Z';
  } catch {
    return false;
  }
}

function refusal(folder: string, holder: Holder | undefined): string {
  const who = holder
    ? `process ${holder.pid}${holder.hostname === hostname() ? '' : ` on ${holder.hostname}`}, ${holder.url ? `listening on ${holder.url}` : 'still starting'}`
    : 'a process that has not said who it is yet';
  const stop = holder && holder.hostname === hostname() ? `stop the other one (kill ${holder.pid})` : 'stop the other one';
  return (
    `The data folder ${folder} is in use by another deposit-sandbox (${who}). Two processes on one folder would overwrite each other's trades. ` +
    `Start this one with --data <another folder> or --in-memory (startSandbox(): data or inMemory), or ${stop}.`
  );
}
