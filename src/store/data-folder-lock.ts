import { randomBytes } from 'node:crypto';
import { closeSync, fstatSync, futimes, linkSync, mkdirSync, openSync, readdirSync, realpathSync, rmSync, statSync, utimes, writeSync, ftruncateSync } from 'node:fs';
import { hostname } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { quietLogger } from '../log/logger.js';
import { folderUsers } from './folder-users.js';
import { describeHolder, formerHolder, HOLDER_NAME, type Holder, holderGone, processStart, readHolder, STALE_MS, stopHolder } from './lock-holder.js';
import { DataFolderRefusedError, notWritable } from './data-folder-refused-error.js';
import { WriteFailedError } from './write-failed-error.js';
import { refuseWorkspaceHeldDirectly, refuseWorkspaceOfHeldFolder, refuseWorkspacesFile, refuseWorkspaceWithJournal, WORKSPACES_NAME } from './workspace-folders.js';

export { HOLDER_NAME } from './lock-holder.js';

/** A folder made beside the holder file (an atomic mkdir): the lock of older versions, which know no holder file, so that they are refused too. */
export const LOCK_NAME = '.lock';
/** How often a holder checks its lock and refreshes its mtime (for holders on other hosts). */
const REFRESH_MS = 2_000;

/** Folders this process holds (a second startSandbox() on the same folder is refused too). */
const held = new Map<string, DataFolderLock>();
let exitHook = false;

/** A process that exits without release() (an uncaught error, process.exit()): remove its lock files. */
function releaseOnExit(): void {
  if (exitHook) return;
  exitHook = true;
  process.once('exit', () => {
    for (const lock of held.values()) lock.releaseSync();
  });
}

/** Where a takeover or a lost lock is told: the sandbox's logger (src/log/logger.ts), given at creation. */
type Notice = (message: string) => void;

/**
 * One process per data folder. The holder file `<folder>/lock.json` (PID, host, URL, the
 * process's start time, a random token) is the lock: it is created only if absent (written
 * aside, then hard-linked into place, which fails if another process got there first), and
 * `<folder>/.lock/` is made beside it for older versions (LOCK_NAME). Another process on the folder is refused with a
 * message naming the holder.
 *
 * Taken over only from a holder that is certainly gone: on this host, its PID no longer runs,
 * is a zombie, or (Linux) belongs to a process started at another time than the holder; on
 * another host or container, its file has not been refreshed for 10 s. A live holder is never
 * taken over, however long it is stopped (kill -STOP, a debugger, a sleeping laptop). When both
 * lock files are missing from a folder that holds data, a process that keeps the folder open
 * (every holder does) is found through /proc and refused the same way.
 *
 * The holder checks every 2 s (and before the writes of each turn of the event loop, with one fstat) that the file is
 * still its own: deleted files are written again; a file of another process means the lock was
 * taken over, and from then on every write is refused with a WriteFailedError that says so.
 */
export class DataFolderLock {
  readonly folder: string;
  readonly #notice: Notice;
  readonly #token = randomBytes(8).toString('hex');
  #holder: Holder;
  /** The holder file, open: the inode this process wrote (its link count falls to 0 if it is deleted or replaced). */
  #fd: number | undefined;
  /** The data folder itself, open for as long as the lock is held (how folderUsers() finds a holder). */
  #folderFd: number | undefined;
  #timer: NodeJS.Timeout | undefined;
  /** Whether the mtimes are being refreshed (one at a time: a hung disk holds one thread of the pool, not more). */
  #refreshing = false;
  /** Whether #poll() already looked in this turn of the event loop. */
  #polled = false;
  #lost: string | undefined;
  #released: Promise<void> | undefined;

  private constructor(folder: string, notice: Notice) {
    this.folder = folder;
    this.#notice = notice;
    const start = processStart(process.pid);
    this.#holder = { pid: process.pid, hostname: hostname(), since: new Date().toISOString(), ...(start ? { start } : {}), token: this.#token };
  }

  /** Takes the lock on `dir` (creating the folder), or throws a DataFolderRefusedError that names the holder. */
  static async acquire(dir: string, notice: Notice = quietLogger.warn): Promise<DataFolderLock> {
    const folder = resolve(dir);
    const heldHere = (path: string) => held.has(path);
    refuseWorkspaceOfHeldFolder(folder, heldHere);
    refuseWorkspaceWithJournal(folder);
    try {
      mkdirSync(folder, { recursive: true });
    } catch (error) {
      throw new DataFolderRefusedError(notWritable(folder, 'the data folder', error));
    }
    refuseWorkspacesFile(folder);
    if (held.has(folder)) throw new DataFolderRefusedError(refusal(folder, readHolder(folder)?.holder));
    refuseWorkspaceHeldDirectly(folder, heldHere);
    const lock = new DataFolderLock(folder, notice);
    // A few rounds: a holder found gone is cleared away, then the lock is tried again.
    for (let round = 0; round < 3; round++) {
      if (lock.#take()) {
        held.set(folder, lock);
        releaseOnExit();
        lock.#timer = setInterval(() => lock.#heartbeat(), REFRESH_MS);
        lock.#timer.unref();
        return lock;
      }
    }
    throw new DataFolderRefusedError(refusal(folder, readHolder(folder)?.holder));
  }

  /** The lock covering a store folder: the data folder itself, or one of its workspaces (`<folder>/workspaces/<name>`). */
  static covering(dir: string): { lock: DataFolderLock; workspace?: string } | undefined {
    const folder = resolve(dir);
    const own = held.get(folder);
    if (own) return { lock: own };
    const parent = dirname(folder);
    const root = basename(parent) === WORKSPACES_NAME ? held.get(dirname(parent)) : undefined;
    return root ? { lock: root, workspace: basename(folder) } : undefined;
  }

  /** Why this process may no longer write the folder (its lock was taken over), or undefined. */
  get lost(): string | undefined {
    this.#poll();
    return this.#lost;
  }

  /** Records the address the holder listens on, for the message another process gets. */
  listening(url: string): void {
    this.#holder = { ...this.#holder, url };
    if (this.#fd === undefined || this.#lost !== undefined) return;
    try {
      const bytes = Buffer.from(`${JSON.stringify(this.#holder)}\n`);
      writeSync(this.#fd, bytes, 0, bytes.length, 0);
      ftruncateSync(this.#fd, bytes.length);
    } catch {
      // Best effort (a full disk): the lock holds; the refusal then names no URL.
    }
  }

  /**
   * Throws a WriteFailedError once the lock was taken over by another process: called before every
   * write to the folder, so nothing is written after another process took it.
   */
  assertHeld(): void {
    this.#poll();
    if (this.#lost !== undefined) throw new WriteFailedError('failed', this.folder, join(this.folder, HOLDER_NAME), 'ELOCKLOST', this.#lost);
  }

  /** Releases the lock (safe to call twice); a lock taken over by another process is left to it. */
  release(): Promise<void> {
    this.#released ??= Promise.resolve().then(() => this.releaseSync());
    return this.#released;
  }

  /** release(), synchronously (also at process exit). */
  releaseSync(): void {
    if (held.get(this.folder) !== this) return;
    held.delete(this.folder);
    clearInterval(this.#timer);
    if (this.#lost === undefined && this.#fd !== undefined && this.#ownsPath()) {
      rmSync(join(this.folder, HOLDER_NAME), { force: true });
      rmSync(join(this.folder, LOCK_NAME), { recursive: true, force: true });
    }
    for (const fd of [this.#fd, this.#folderFd]) if (fd !== undefined) closeSync(fd);
    this.#fd = undefined;
    this.#folderFd = undefined;
  }

  /** One try at the lock: true when taken; false to try again (a gone holder was cleared away); throws a refusal. */
  #take(): boolean {
    const folder = this.folder;
    const found = readHolder(folder);
    if (found) {
      const why = holderGone(found.holder, found.age);
      if (why === undefined) throw new DataFolderRefusedError(refusal(folder, found.holder));
      // Cleared only if it is still the same holder's file (another process may be here too).
      if (readHolder(folder)?.holder.token !== found.holder.token) return false;
      rmSync(join(folder, HOLDER_NAME), { force: true });
      rmSync(join(folder, LOCK_NAME), { recursive: true, force: true });
      this.#notice(`took over the lock on the data folder ${folder} left by ${formerHolder(found.holder)}, ${why}.`);
      return false;
    }
    const users = holdsData(folder) ? folderUsers(realpathSync(folder)) : [];
    const [user] = users;
    if (user !== undefined) throw new DataFolderRefusedError(refusal(folder, undefined, user));
    try {
      mkdirSync(join(folder, LOCK_NAME));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw new DataFolderRefusedError(notWritable(folder, 'the data folder', error));
      // A lock folder without a holder file: a process between the two (starting), an older
      // version's lock that refreshes its mtime, or one left behind long ago.
      const age = Date.now() - (statSync(join(folder, LOCK_NAME), { throwIfNoEntry: false })?.mtimeMs ?? 0);
      if (age <= STALE_MS) throw new DataFolderRefusedError(refusal(folder, undefined));
      rmSync(join(folder, LOCK_NAME), { recursive: true, force: true });
      this.#notice(`took over the lock on the data folder ${folder}: its lock folder had not been refreshed for ${Math.round(age / 1000)} s and named no holder.`);
      return false;
    }
    if (!this.#create()) return false;
    try {
      this.#folderFd = openSync(folder, 'r');
    } catch {
      // Not where folders cannot be opened (Windows): the lock files alone then protect the folder.
    }
    return true;
  }

  /** Writes the holder file if none exists; false when another process's is there. */
  #create(): boolean {
    const path = join(this.folder, HOLDER_NAME);
    const aside = join(this.folder, `${HOLDER_NAME}.${this.#token}.tmp`);
    const bytes = Buffer.from(`${JSON.stringify(this.#holder)}\n`);
    let fd: number;
    try {
      fd = openSync(aside, 'w+');
      writeSync(fd, bytes);
    } catch (error) {
      throw new DataFolderRefusedError(notWritable(this.folder, 'the data folder', error));
    }
    try {
      // Atomic and exclusive (NFS too): fails with EEXIST when a holder file is already there.
      linkSync(aside, path);
    } catch (error) {
      closeSync(fd);
      rmSync(aside, { force: true });
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
      return this.#createWithoutLink(path, bytes);
    }
    rmSync(aside, { force: true });
    if (this.#fd !== undefined) closeSync(this.#fd);
    this.#fd = fd;
    return true;
  }

  /** File systems without hard links (FAT, some network shares): an exclusive create (O_EXCL). */
  #createWithoutLink(path: string, bytes: Buffer): boolean {
    let fd: number;
    try {
      fd = openSync(path, 'wx+');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw new DataFolderRefusedError(notWritable(this.folder, 'the data folder', error));
    }
    writeSync(fd, bytes);
    if (this.#fd !== undefined) closeSync(this.#fd);
    this.#fd = fd;
    return true;
  }

  /** Whether `lock.json` is still the file this process wrote. */
  #ownsPath(): boolean {
    if (this.#fd === undefined) return false;
    const path = statSync(join(this.folder, HOLDER_NAME), { throwIfNoEntry: false });
    const mine = fstatSync(this.#fd);
    return path !== undefined && path.ino === mine.ino && path.dev === mine.dev;
  }

  /**
   * One fstat: the holder file this process wrote still has a name (else #check() looks closer).
   * Once per turn of the event loop: the journals of every workspace written in one turn share it.
   */
  #poll(): void {
    if (this.#lost !== undefined || this.#fd === undefined || this.#polled) return;
    this.#polled = true;
    setImmediate(() => {
      this.#polled = false;
    });
    if (fstatSync(this.#fd).nlink === 0) this.#check();
  }

  /** Checks the lock is still this process's: puts deleted files back; notices a takeover. */
  #check(): void {
    if (this.#lost !== undefined || this.#fd === undefined) return;
    try {
      if (!this.#ownsPath()) {
        const gone = statSync(join(this.folder, HOLDER_NAME), { throwIfNoEntry: false }) === undefined;
        if (!(gone && this.#create())) {
          this.#lose(readHolder(this.folder)?.holder);
          return;
        }
        this.#notice(
          `the lock file ${join(this.folder, HOLDER_NAME)} was deleted while this sandbox ran on the folder; it was written again. Do not delete it: it keeps a second process off the folder.`,
        );
      }
      // Looked at first: a mkdir waits while the file system is frozen, even where the folder exists.
      if (statSync(join(this.folder, LOCK_NAME), { throwIfNoEntry: false }) === undefined) mkdirSync(join(this.folder, LOCK_NAME), { recursive: true });
    } catch {
      // The folder cannot be read or written right now (a full disk, a frozen mount): try again later.
    }
  }

  #heartbeat(): void {
    this.#check();
    if (this.#lost !== undefined || this.#fd === undefined || this.#refreshing) return;
    // The mtimes tell processes on other hosts (and older versions) that the holder runs. Set off
    // the event loop: on a frozen or hung file system a write of metadata waits, and must not stall requests.
    this.#refreshing = true;
    const now = new Date();
    futimes(this.#fd, now, now, () =>
      utimes(join(this.folder, LOCK_NAME), now, now, () => {
        this.#refreshing = false;
      }),
    );
  }

  #lose(other: Holder | undefined): void {
    clearInterval(this.#timer);
    this.#lost =
      `The lock on the data folder ${this.folder} was taken over by another deposit-sandbox (${describeHolder(other)}) while this one ran ` +
      `(this one was stopped or out of reach for more than ${STALE_MS / 1000} s, or its lock files were deleted). So that the two do not overwrite each other's trades, ` +
      'this sandbox no longer writes there: the change was not made and nothing was saved; reads keep working. ' +
      'Stop this sandbox and use the other one, or restart this one with --data <another folder>.';
    this.#notice(this.#lost);
  }
}

/** Whether a data folder holds anything a second process could overwrite (a snapshot or a journal). */
function holdsData(folder: string): boolean {
  try {
    return readdirSync(folder).some((name) => name === 'db.json' || /^journal\.\d+\.ndjson$/.test(name));
  } catch {
    return false;
  }
}

function refusal(folder: string, holder: Holder | undefined, user?: number): string {
  const who = user === undefined ? describeHolder(holder) : `process ${user}, which has the folder open; its lock files were deleted`;
  const stop = user === undefined ? stopHolder(holder) : `stop the other one (kill ${user})`;
  return (
    `The data folder ${folder} is in use by another deposit-sandbox (${who}). Two processes on one folder would overwrite each other's trades. ` +
    `Start this one with --data <another folder> or --in-memory (startSandbox(): data or inMemory), or ${stop}.`
  );
}
