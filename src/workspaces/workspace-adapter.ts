import type { StoreAdapter, StoreSink } from '../store/adapter.js';
import type { Change } from '../store/table.js';

/** Why a change of a removed workspace was not saved (the cause of the store's StorageError). */
export class WorkspaceRemovedError extends Error {
  override name = 'WorkspaceRemovedError';
  readonly workspace: string;
  constructor(workspace: string, removed: boolean) {
    super(`workspace "${workspace}" was ${removed ? 'removed' : 'closed (the sandbox is stopping)'} while this change was being made; it was not saved`);
    this.workspace = workspace;
  }
}

/**
 * The store adapter of one workspace: the workspace's own adapter (its folder, or memory),
 * behind a fence the registry closes when it removes the workspace (DELETE, --workspace-ttl).
 * From then on every write is refused, so a request still running in the removed workspace
 * (a slow body, a scenario's delay) can never write into its folder, which a workspace created
 * later under the same name may own by then: its change is refused with the error the app
 * answers as 409 `workspace_removed`. It also notes the time of the last write, which the
 * expiry sweep counts as use.
 */
export class WorkspaceAdapter implements StoreAdapter {
  readonly #inner: StoreAdapter;
  readonly #workspace: string;
  #removed = false;
  #closed = false;
  /** Wall-clock time of the last write handed on (0 before any). */
  lastWrite = 0;
  readonly load?: (sink: StoreSink) => Promise<boolean>;

  constructor(inner: StoreAdapter, workspace: string) {
    this.#inner = inner;
    this.#workspace = workspace;
    // Only when the inner adapter streams: the store reads with `load` when there is one.
    const load = inner.load?.bind(inner);
    if (load) this.load = load;
  }

  get location(): string {
    return this.#inner.location;
  }

  get folder(): string | undefined {
    return this.#inner.folder;
  }

  /** True once the workspace was removed: every write is refused. */
  get removed(): boolean {
    return this.#removed;
  }

  read(): Promise<unknown> {
    return this.#inner.read();
  }

  write(changes: readonly Change[], snapshot: () => unknown, liveRows?: number): Promise<void> {
    if (this.#removed || this.#closed) return Promise.reject(new WorkspaceRemovedError(this.#workspace, this.#removed));
    this.lastWrite = Date.now();
    return this.#inner.write(changes, snapshot, liveRows);
  }

  /** Closes the files once; a write after this is refused (a closed store never writes again). */
  async close(snapshot: () => unknown): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#inner.close?.(snapshot);
  }

  /** Refuses every write from now on (the registry removes the workspace). */
  remove(): void {
    this.#removed = true;
  }
}
