import { readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { formatDuration } from '../clock/duration.js';
import type { SandboxOptionsInput } from '../config/options.js';
import type { Sandbox, WorkspaceSeat } from '../sandbox.js';
import { MemoryAdapter, type StoreAdapter } from '../store/adapter.js';
import { JournalAdapter } from '../store/journal-adapter.js';
import type { WorkspaceSummary } from './workspace-answers.js';
import { DEFAULT_WORKSPACE, workspaceNameProblem } from './workspace-name.js';

type CreateSandbox = (input: SandboxOptionsInput, adapter: StoreAdapter, settings: { seat: WorkspaceSeat }) => Promise<Sandbox>;

interface Entry {
  readonly name: string;
  sandbox?: Sandbox;
  opening?: Promise<Sandbox>;
  /** Wall-clock time of the last request (at start-up: of the newest file in its folder). */
  lastUsed: number;
}

export type OpenResult = { ok: true; sandbox: Sandbox } | { ok: false; reason: 'invalid_name' | 'limit' | 'closed'; message: string };

/** How many stored workspaces are loaded at once at start-up. */
const LOADERS = 4;

/** The sub-folder of the data folder that holds one folder per workspace. */
export const WORKSPACES_FOLDER = 'workspaces';

/**
 * The workspaces of one server: complete sandboxes (own store, clock, scheduler, callbacks),
 * created on first use and kept in their own folder `<data>/workspaces/<name>/`. The default
 * sandbox is the workspace `default` and is never created, expired or removed here.
 *
 * Start-up: workspace folders are found at once (names only) and loaded a few at a time in
 * the background, most recently used first, so the server listens without waiting for them;
 * a request for one not loaded yet waits for that one alone.
 */
export class WorkspaceRegistry {
  readonly #root: Sandbox;
  readonly #create: CreateSandbox;
  readonly #entries = new Map<string, Entry>();
  readonly #deleting = new Map<string, Promise<void>>();
  readonly #log: (line: string) => void;
  #background: Promise<void> = Promise.resolve();
  #sweeper: NodeJS.Timeout | undefined;
  #closed = false;
  /** The server's public URL as last seen, and without its trailing slashes. */
  #rootSeen = '';
  #rootBase = '';

  constructor(root: Sandbox, create: CreateSandbox, log: (line: string) => void = (line) => process.stdout.write(`deposit-sandbox: ${line}\n`)) {
    this.#root = root;
    this.#create = create;
    this.#log = log;
  }

  /** The folder of the workspaces, or undefined when the server keeps nothing on disk. */
  get folder(): string | undefined {
    const adapter = this.#root.store.adapter;
    return adapter instanceof JournalAdapter ? join(adapter.dir, WORKSPACES_FOLDER) : undefined;
  }

  /** How many workspaces besides default exist (loaded or not). */
  get size(): number {
    return this.#entries.size;
  }

  /** Finds the stored workspaces, starts loading them, and starts the expiry sweep. */
  start(): void {
    const folder = this.folder;
    if (folder !== undefined) {
      let names: string[] = [];
      try {
        names = readdirSync(folder, { withFileTypes: true })
          .filter((entry) => entry.isDirectory() && workspaceNameProblem(entry.name) === undefined && entry.name !== DEFAULT_WORKSPACE)
          .map((entry) => entry.name);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
      for (const name of names) this.#entries.set(name, { name, lastUsed: newestChange(join(folder, name)) });
      const order = [...this.#entries.values()].sort((a, b) => b.lastUsed - a.lastUsed);
      // A few at a time: one workspace's file reads overlap another's parsing.
      const loader = async () => {
        for (let entry = order.shift(); entry !== undefined && !this.#closed; entry = order.shift()) {
          if (this.#entries.get(entry.name) !== entry) continue;
          await this.#load(entry).catch((error: unknown) => this.#log(`workspace "${entry.name}" could not be loaded: ${(error as Error).message}`));
          await new Promise((resolve) => setImmediate(resolve));
        }
      };
      this.#background = Promise.all(Array.from({ length: LOADERS }, loader)).then(() => undefined);
    }
    const ttl = this.#root.options.workspaceTtl;
    if (ttl > 0) {
      this.#sweeper = setInterval(() => void this.sweep(), Math.max(10, Math.min(ttl, 60_000)));
      this.#sweeper.unref();
    }
  }

  /** Resolves once every workspace found at start-up is loaded. */
  loaded(): Promise<void> {
    return this.#background;
  }

  /** The workspace if it is loaded (the fast path of every prefixed request), marking it used. */
  ready(name: string): Sandbox | undefined {
    const entry = this.#entries.get(name);
    if (entry?.sandbox === undefined) return undefined;
    entry.lastUsed = Date.now();
    this.#follow(entry.sandbox);
    return entry.sandbox;
  }

  /** A workspace's public URL is the server's plus /w/<name>; the server's is set once it listens. */
  #follow(sandbox: Sandbox): void {
    if (this.#rootSeen !== this.#root.publicUrl) {
      this.#rootSeen = this.#root.publicUrl;
      this.#rootBase = this.#rootSeen.replace(/\/+$/, '');
    }
    const url = sandbox.publicUrl;
    if (url.length !== this.#rootBase.length + sandbox.basePath.length || !url.startsWith(this.#rootBase)) sandbox.publicUrl = `${this.#rootBase}${sandbox.basePath}`;
  }

  /** The workspace `name`, created (or loaded) on first use. */
  async open(name: string): Promise<OpenResult> {
    if (name === DEFAULT_WORKSPACE) return { ok: true, sandbox: this.#root };
    const problem = workspaceNameProblem(name);
    if (problem !== undefined) return { ok: false, reason: 'invalid_name', message: problem };
    await this.#deleting.get(name);
    let entry = this.#entries.get(name);
    if (entry === undefined) {
      if (this.#closed) return { ok: false, reason: 'closed', message: 'The sandbox is shutting down and opens no new workspace.' };
      const max = this.#root.options.maxWorkspaces;
      if (this.#entries.size >= max) {
        return {
          ok: false,
          reason: 'limit',
          message:
            `The sandbox already holds ${this.#entries.size} workspaces besides default, its limit (--max-workspaces ${max}), so "${name}" was not created. ` +
            'Remove workspaces you no longer need with DELETE /w/<name>/_sandbox (GET /_sandbox/workspaces lists them), let idle ones expire (--workspace-ttl), ' +
            'or start the sandbox with a higher --max-workspaces (env DEPOSIT_SANDBOX_MAX_WORKSPACES).',
        };
      }
      entry = { name, lastUsed: Date.now() };
      this.#entries.set(name, entry);
    }
    entry.lastUsed = Date.now();
    const sandbox = entry.sandbox ?? (await this.#load(entry));
    this.#follow(sandbox);
    return { ok: true, sandbox };
  }

  /** The workspaces loaded now, besides default (the integration report reads their counters). */
  loadedSandboxes(): Sandbox[] {
    return [...this.#entries.values()].flatMap((entry) => (entry.sandbox ? [entry.sandbox] : []));
  }

  /** Every workspace, default first, then by name (waits for those still loading). */
  async list(): Promise<WorkspaceSummary[]> {
    await this.#background;
    const entries = [...this.#entries.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const loaded = await Promise.all(entries.map(async (entry) => ({ entry, sandbox: await this.#load(entry).catch(() => undefined) })));
    return [
      summarize(this.#root, undefined),
      ...loaded.filter((item): item is { entry: Entry; sandbox: Sandbox } => item.sandbox !== undefined).map(({ entry, sandbox }) => summarize(sandbox, entry.lastUsed)),
    ];
  }

  /**
   * Removes a workspace: stops its clock and callbacks (nothing pending is sent afterwards),
   * then deletes its folder. Resolves with what it held, or undefined for an unknown name.
   */
  async delete(name: string): Promise<WorkspaceSummary | undefined> {
    const entry = this.#entries.get(name);
    if (entry === undefined) return undefined;
    this.#entries.delete(name);
    let summary: WorkspaceSummary | undefined;
    const done = (async () => {
      const sandbox = await (entry.opening ?? Promise.resolve(entry.sandbox)).catch(() => undefined);
      if (sandbox) {
        summary = summarize(sandbox, entry.lastUsed);
        // Its integration report outlives it: the root keeps the counts until the process exits.
        this.#root.report.keepDeleted(name, sandbox.report, (id) => sandbox.merchants.get(id)?.name);
        await sandbox.close();
      }
      const folder = this.folder;
      if (folder !== undefined) rmSync(join(folder, name), { recursive: true, force: true });
    })();
    this.#deleting.set(name, done);
    try {
      await done;
    } finally {
      if (this.#deleting.get(name) === done) this.#deleting.delete(name);
    }
    return summary ?? { name, path: `/w/${name}`, trades: 0, pending_steps: 0, callbacks: 0, clock: { mode: this.#root.options.clock, now: '' }, last_used: new Date(entry.lastUsed).toISOString() };
  }

  /** Removes the workspaces unused for --workspace-ttl as of `now` (wall clock), with a log line each. */
  async sweep(now: number = Date.now()): Promise<string[]> {
    const ttl = this.#root.options.workspaceTtl;
    if (ttl <= 0 || this.#closed) return [];
    const expired = [...this.#entries.values()].filter((entry) => now - entry.lastUsed >= ttl);
    for (const entry of expired) {
      await this.delete(entry.name);
      this.#log(
        `workspace "${entry.name}" expired: unused for ${formatDuration(now - entry.lastUsed)} (--workspace-ttl ${formatDuration(ttl)}, last used ${new Date(entry.lastUsed).toISOString()}); its data was removed`,
      );
    }
    return expired.map((entry) => entry.name);
  }

  /** Stops the sweep and closes every workspace (flushing its store). */
  async close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#sweeper);
    await this.#background;
    await Promise.all([...this.#deleting.values()]);
    await Promise.all(
      [...this.#entries.values()].map(async (entry) => {
        const sandbox = await (entry.opening ?? Promise.resolve(entry.sandbox)).catch(() => undefined);
        await sandbox?.close();
      }),
    );
  }

  #load(entry: Entry): Promise<Sandbox> {
    if (entry.sandbox) return Promise.resolve(entry.sandbox);
    entry.opening ??= (async () => {
      const folder = this.folder;
      const adapter = folder === undefined ? new MemoryAdapter() : new JournalAdapter(join(folder, entry.name));
      const root = this.#root;
      const seat: WorkspaceSeat = { name: entry.name, shared: root.shared, rootUrl: () => root.publicUrl };
      const sandbox = await this.#create(root.options, adapter, { seat });
      entry.sandbox = sandbox;
      return sandbox;
    })().catch((error: unknown) => {
      entry.opening = undefined;
      throw error;
    });
    return entry.opening;
  }
}

function summarize(sandbox: Sandbox, lastUsed: number | undefined): WorkspaceSummary {
  return {
    name: sandbox.workspace,
    path: sandbox.basePath,
    trades: sandbox.store.trades.size,
    pending_steps: sandbox.store.jobs.size,
    callbacks: sandbox.store.callbacks.size,
    clock: { mode: sandbox.clock.mode, now: sandbox.clock.nowIso() },
    last_used: lastUsed === undefined ? null : new Date(lastUsed).toISOString(),
  };
}

/** The time of the newest change in a workspace folder (its journal grows on every write). */
function newestChange(folder: string): number {
  let newest = 0;
  try {
    for (const name of readdirSync(folder)) newest = Math.max(newest, statSync(join(folder, name)).mtimeMs);
    newest = Math.max(newest, statSync(folder).mtimeMs);
  } catch {
    return Date.now();
  }
  return newest || Date.now();
}
