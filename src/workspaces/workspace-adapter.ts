import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { MemoryAdapter, type StoreAdapter, type StoreSink } from '../store/adapter.js';
import { JournalAdapter, type JournalAdapterOptions } from '../store/journal-adapter.js';
import type { Change } from '../store/table.js';

/** Why a change of a removed workspace was not saved (the cause of the store's WriteFailedError). */
export class WorkspaceRemovedError extends Error {
  override name = 'WorkspaceRemovedError';
  readonly workspace: string;
  constructor(workspace: string, removed: boolean) {
    super(`workspace "${workspace}" was ${removed ? 'removed' : 'closed (the sandbox is stopping)'} while this change was being made; it was not saved`);
    this.workspace = workspace;
  }
}

/**
 * The store adapter of one workspace: its folder (a journal, as the default sandbox's), or
 * memory, behind a fence the registry closes when it removes the workspace (DELETE,
 * --workspace-ttl). From then on every write is refused, so a request still running in the
 * removed workspace (a slow body, a scenario's delay) can never write into its folder, which a
 * workspace created later under the same name may own by then: its change is refused with the
 * error the app answers as 409 `workspace_removed`. It also notes the time of the last write,
 * which the expiry sweep counts as use.
 *
 * The folder of a workspace on trial (made by a request not answered yet, see
 * workspace-registry.ts) is made when the registry keeps it or by its first write, not before:
 * a workspace a refused request tried leaves nothing on disk, even when the process is killed
 * while it exists.
 */
export class WorkspaceAdapter implements StoreAdapter {
  readonly #workspace: string;
  /** The adapter of the folder or of memory; undefined until the first write makes a new folder. */
  #inner: StoreAdapter | undefined;
  readonly #make: () => StoreAdapter;
  #removed = false;
  #closed = false;
  readonly location: string;
  readonly folder: string | undefined;
  /** Wall-clock time of the last write handed on (0 before any). */
  lastWrite = 0;
  readonly load?: (sink: StoreSink) => Promise<boolean>;
  #settled: (() => unknown) | undefined;

  /**
   * `folder`: the workspace's folder, or undefined to keep it in memory. `onTrial`: a folder not
   * there yet is made by keep() or the first write, not now.
   */
  constructor(workspace: string, folder: string | undefined, options: JournalAdapterOptions = {}, onTrial = false) {
    this.#workspace = workspace;
    this.folder = folder;
    this.location = folder === undefined ? 'memory' : join(folder, 'db.json');
    this.#make = () => (folder === undefined ? new MemoryAdapter() : new JournalAdapter(folder, options));
    // A folder already there is read as it is; a new one is made now, or later for a trial.
    if (!onTrial || folder === undefined || existsSync(folder)) {
      const inner = this.#make();
      this.#inner = inner;
      // Only when the inner adapter streams: the store reads with `load` when there is one.
      const load = inner.load?.bind(inner);
      if (load) this.load = load;
    }
  }

  /** True once the workspace was removed: every write is refused. */
  get removed(): boolean {
    return this.#removed;
  }

  /** True once something was handed on to be saved (a workspace on trial is then kept). */
  get written(): boolean {
    return this.lastWrite > 0;
  }

  attach(settled: () => unknown): void {
    this.#settled = settled;
    this.#inner?.attach?.(settled);
  }

  /** The folder's adapter (or memory's), made now. */
  #makeInner(): StoreAdapter {
    const inner = this.#make();
    if (this.#settled) inner.attach?.(this.#settled);
    return inner;
  }

  read(): Promise<unknown> {
    return this.#inner?.read() ?? Promise.resolve(null);
  }

  write(changes: readonly Change[], snapshot: () => unknown, liveRows?: number): Promise<void> {
    if (this.#removed || this.#closed) return Promise.reject(new WorkspaceRemovedError(this.#workspace, this.#removed));
    if (changes.length === 0) return Promise.resolve();
    this.lastWrite = Date.now();
    try {
      this.#inner ??= this.#makeInner();
    } catch (error) {
      return Promise.reject(error);
    }
    return this.#inner.write(changes, snapshot, liveRows);
  }

  /**
   * The registry keeps a workspace that was on trial: its folder is made now (if it cannot be,
   * the first write says why). The registry never has two workspaces of one name, and removes
   * the old folder before a new workspace of its name opens: a folder made here is new and empty.
   */
  keep(): void {
    if (this.#inner !== undefined || this.#removed || this.#closed) return;
    try {
      this.#inner = this.#makeInner();
    } catch {
      // The first write makes it again, and answers with the storage error.
    }
  }

  /** Closes the files once; a write after this is refused (a closed store never writes again). */
  async close(snapshot: () => unknown): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#inner?.close?.(snapshot);
  }

  /** Refuses every write from now on (the registry removes the workspace). */
  remove(): void {
    this.#removed = true;
  }
}
