import { join } from 'node:path';
import { formatDuration } from '../clock/duration.js';
import type { SandboxOptions } from '../config/options.js';
import { type Logger, loggerOrQuiet, workspaceLogger } from '../log/logger.js';
import { MistakeCounter } from '../report/mistake-counter.js';
import { DEFAULT_WORKSPACE, type Sandbox, type SandboxSeat, type SandboxServices, type SandboxShared } from '../sandbox.js';
import type { StoreAdapter } from '../store/adapter.js';
import type { DataFolderLock } from '../store/data-folder-lock.js';
import { JournalAdapter } from '../store/journal-adapter.js';
import { JOURNAL_GROWTH_LIMIT } from '../store/compaction-policy.js';
import { Limiter } from '../callbacks/limiter.js';
import { WorkspacesJournal } from '../store/workspaces-journal.js';
import { writeSessionFile } from '../sessions/write-session-file.js';
import { WorkspaceAdapter } from './workspace-adapter.js';
import { keepsNewWorkspace, type RequestOutcome } from './keeps-new-workspace.js';
import { removeFolder, storedWorkspaces } from './workspace-folder.js';
import { caseTwin, foldsCase } from './case-folding.js';
import type { WorkspaceSummary } from './workspace-answers.js';
import { workspaceNameProblem } from './workspace-name.js';

type CreateSandbox = (options: SandboxOptions, adapter: StoreAdapter, settings: { seat: SandboxSeat; services: SandboxServices }) => Promise<Sandbox>;

/** What the registry is given by its server (src/server/server.ts). */
export interface RegistrySettings {
  readonly options: SandboxOptions;
  /** The server's services; each workspace gets them, its logger marking its lines with its name. */
  readonly services: SandboxServices;
  readonly shared: SandboxShared;
  /** The data folder's lock, when the server keeps a data folder. */
  readonly dataFolder: DataFolderLock | undefined;
  /** The server's public URL (a workspace's is it plus /w/<name>). */
  readonly rootUrl: () => string;
  /** The workspace `default`, made by the server over the data folder's own files. */
  readonly root: Sandbox;
  /** How a workspace is made: the same createSandbox() that made `default`. */
  readonly create: CreateSandbox;
}

export type OpenResult = { ok: true; sandbox: Sandbox } | { ok: false; reason: 'invalid_name' | 'case_twin' | 'limit' | 'closed'; message: string };

/** A workspace opened for one request; `leave` is called once with the request's answer. */
export type EnterResult = { ok: true; sandbox: Sandbox; leave: (outcome: RequestOutcome) => void } | (OpenResult & { ok: false });

/** What create() did: the new workspace, or why none was made. */
export type CreateResult = { ok: true; sandbox: Sandbox } | { ok: false; reason: 'invalid_name' | 'exists' | 'case_twin' | 'limit' | 'closed'; message: string };

/** What a removal did: the workspace removed, or why nothing was. */
export type DeleteResult = { ok: true; removed: WorkspaceSummary } | { ok: false; reason: 'not_found' | 'permanent'; message: string };

interface Entry {
  readonly name: string;
  sandbox?: Sandbox;
  /** The workspace's store adapter, fenced: set when loading starts. */
  adapter?: WorkspaceAdapter;
  opening?: Promise<Sandbox>;
  /** Wall-clock time of the last request (at start-up: of the newest file in its folder). */
  lastUsed: number;
  /**
   * Set while the workspace is on trial: made by a request not answered yet, it is kept once a
   * request in it is accepted (keeps-new-workspace.ts) or saves something, and dropped when the
   * last of its requests is refused. `running` counts those requests.
   */
  trial?: { running: number };
}

/** How many stored workspaces are loaded at once at start-up. */
const LOADERS = 4;

/** How many workspaces are closed (folded into their db.json) at once when the server stops. */
const CLOSERS = 16;

/** The sub-folder of the data folder that holds one folder per workspace. */
export const WORKSPACES_FOLDER = 'workspaces';

/**
 * The workspaces of one server: complete sandboxes (own store, clock, scheduler, callbacks),
 * created on first use and kept in their own folder `<data>/workspaces/<name>/`. The workspace
 * `default` is the server's own (its files are the data folder's): it is found here like any
 * other, but never created, expired or removed.
 *
 * Start-up: workspace folders are found at once (names only) and loaded a few at a time in
 * the background, most recently used first, so the server listens without waiting for them;
 * a request for one not loaded yet waits for that one alone.
 */
export class WorkspaceRegistry {
  readonly #host: RegistrySettings;
  readonly #root: Sandbox;
  readonly #create: CreateSandbox;
  /** The integration reports of removed workspaces, kept until the process exits (MistakeCounter.keepDeleted). */
  readonly #removed = new MistakeCounter();
  readonly #entries = new Map<string, Entry>();
  readonly #deleting = new Map<string, Promise<void>>();
  readonly #logger: Logger;
  #background: Promise<void> = Promise.resolve();
  #sweeper: NodeJS.Timeout | undefined;
  #closed = false;
  #sweeping = false;
  /** The server's public URL as last seen, and without its trailing slashes. */
  #rootSeen = '';
  #rootBase = '';
  /** The journal every stored workspace writes to (workspaces-journal.ts); undefined when nothing is kept on disk. */
  #journal: WorkspacesJournal | undefined;
  /** Whether the workspaces' file system folds case (asked once, when the first new workspace is made). */
  #foldsCase: boolean | undefined;

  constructor(host: RegistrySettings) {
    this.#host = host;
    this.#root = host.root;
    this.#create = host.create;
    this.#logger = loggerOrQuiet(host.services.logger);
  }

  /** The integration reports of the workspaces removed since the process started, by name. */
  get removedReports(): ReadonlyMap<string, MistakeCounter> {
    return this.#removed.deleted;
  }

  /** The folder of the workspaces, or undefined when the server keeps nothing on disk. */
  get folder(): string | undefined {
    const adapter = this.#root.store.adapter;
    return adapter instanceof JournalAdapter ? join(adapter.dir, WORKSPACES_FOLDER) : undefined;
  }

  /** How many workspaces besides default exist (loaded or not; not those on trial). */
  get size(): number {
    let size = 0;
    for (const entry of this.#entries.values()) if (entry.trial === undefined) size++;
    return size;
  }

  /** The workspaces' journal of the data folder (made on first use), or undefined when nothing is kept on disk. */
  #sharedJournal(): WorkspacesJournal | undefined {
    const folder = this.folder;
    const rootAdapter = this.#root.store.adapter;
    if (folder === undefined || !(rootAdapter instanceof JournalAdapter)) return undefined;
    // Its records are fdatasynced when the server's are (startSandbox({ fsync })); it grows as far
    // as a store's journal of new rows may (compaction-policy.ts) before its workspaces fold it in.
    this.#journal ??= new WorkspacesJournal(folder, { fsync: rootAdapter.fsync, warn: this.#logger.warn, rotateBytes: JOURNAL_GROWTH_LIMIT * rootAdapter.compactBytes });
    return this.#journal;
  }

  /** Finds the stored workspaces, starts loading them, and starts the expiry sweep. */
  start(): void {
    const folder = this.folder;
    const journal = this.#sharedJournal();
    if (folder !== undefined && journal !== undefined) {
      const stored = storedWorkspaces(folder);
      for (const { name, lastChange } of stored) this.#entries.set(name, { name, lastUsed: lastChange });
      const loaders = async () => {
        await journal.ready();
        // Entries of a name with no folder (removed by hand while the server was stopped) are let
        // go before any workspace loads, so a workspace made under that name starts empty.
        journal.settle(new Set(stored.map(({ name }) => name)));
        // A workspace's last write may be in the journal only: it counts as its last use.
        for (const entry of this.#entries.values()) entry.lastUsed = Math.max(entry.lastUsed, journal.lastWrite(entry.name));
        const order = [...this.#entries.values()].sort((a, b) => b.lastUsed - a.lastUsed);
        // A few at a time: one workspace's file reads overlap another's parsing.
        const loader = async () => {
          for (let entry = order.shift(); entry !== undefined && !this.#closed; entry = order.shift()) {
            if (this.#entries.get(entry.name) !== entry) continue;
            await this.#load(entry).catch((error: unknown) => this.#logger.warn(`workspace "${entry.name}" could not be loaded: ${(error as Error).message}`));
            await new Promise((resolve) => setImmediate(resolve));
          }
        };
        await Promise.all(Array.from({ length: LOADERS }, loader));
      };
      this.#background = loaders().catch((error: unknown) => this.#logger.warn(`the workspaces' journal could not be read: ${(error as Error).message}`));
    }
    const ttl = this.#host.options.workspaceTtl;
    if (ttl > 0) {
      this.#sweeper = setInterval(() => void this.sweep(), Math.max(10, Math.min(ttl, 60_000)));
      this.#sweeper.unref();
    }
  }

  /** Resolves once every workspace found at start-up is loaded. */
  loaded(): Promise<void> {
    return this.#background;
  }

  /** True when workspace `name` exists (loaded or not; not on trial), or is default. */
  has(name: string): boolean {
    if (name === DEFAULT_WORKSPACE) return true;
    const entry = this.#entries.get(name);
    return entry !== undefined && entry.trial === undefined;
  }

  /** The workspace if it is loaded and not on trial (the fast path of every prefixed request), marking it used. */
  ready(name: string): Sandbox | undefined {
    const entry = this.#entries.get(name);
    if (entry?.sandbox === undefined || entry.trial !== undefined) return undefined;
    entry.lastUsed = Date.now();
    this.#follow(entry.sandbox);
    return entry.sandbox;
  }

  /** A workspace's public URL is the server's plus /w/<name>; the server's is set once it listens. */
  #follow(sandbox: Sandbox): void {
    const rootUrl = this.#host.rootUrl();
    if (this.#rootSeen !== rootUrl) {
      this.#rootSeen = rootUrl;
      this.#rootBase = this.#rootSeen.replace(/\/+$/, '');
    }
    const url = sandbox.publicUrl;
    if (url.length !== this.#rootBase.length + sandbox.basePath.length || !url.startsWith(this.#rootBase)) sandbox.publicUrl = `${this.#rootBase}${sandbox.basePath}`;
  }

  /** The workspace `name`, created (or loaded) on first use, and kept. */
  async open(name: string): Promise<OpenResult> {
    const opened = await this.#open(name, false);
    if (!opened.ok) return opened;
    if (opened.entry !== undefined) this.#keep(opened.entry);
    return { ok: true, sandbox: opened.sandbox };
  }

  /**
   * The workspace `name` for one request, and `leave`, to be called with the request's answer.
   * An existing workspace is opened as by open(). A new one is on trial until its request is
   * answered: it is listed nowhere, counts toward --max-workspaces only while the request runs,
   * and is kept only when the request was accepted (keeps-new-workspace.ts) or saved something.
   * Otherwise it is dropped, having left nothing on disk (its folder is made when it is kept),
   * so requests refused by a route (a wrong X-Auth, an unknown trade) cannot fill the limit.
   * Several requests may share one trial; one accepted keeps it, else the last to leave drops it.
   */
  async enter(name: string): Promise<EnterResult> {
    let opened = await this.#open(name, true);
    // A trial that ended while this request waited for it to load: try again, on a new one.
    while (opened.ok && opened.entry !== undefined && this.#entries.get(name) !== opened.entry) opened = await this.#open(name, true);
    if (!opened.ok) return opened;
    const entry = opened.entry;
    if (entry?.trial === undefined) return { ok: true, sandbox: opened.sandbox, leave: () => undefined };
    entry.trial.running++;
    let left = false;
    return {
      ok: true,
      sandbox: opened.sandbox,
      leave: (outcome: RequestOutcome) => {
        if (left) return;
        left = true;
        this.#settle(entry, outcome);
      },
    };
  }

  /** One request of a workspace on trial was answered: keep the workspace, or drop it after the last. */
  #settle(entry: Entry, outcome: RequestOutcome): void {
    const trial = entry.trial;
    if (trial === undefined || this.#entries.get(entry.name) !== entry) return;
    trial.running--;
    if (keepsNewWorkspace(outcome) || entry.adapter?.written === true) {
      this.#keep(entry);
      return;
    }
    if (trial.running > 0) return;
    // Nothing of it is on disk and nothing of it is kept (not even its report: its only
    // requests were refused, and the integration report does not count what junk sends).
    this.#entries.delete(entry.name);
    entry.adapter?.remove();
    const done = (async () => {
      const sandbox = await (entry.opening ?? Promise.resolve(entry.sandbox)).catch(() => undefined);
      await sandbox?.close().catch(() => undefined);
    })();
    this.#deleting.set(entry.name, done);
    void done.finally(() => {
      if (this.#deleting.get(entry.name) === done) this.#deleting.delete(entry.name);
    });
  }

  /** A workspace that was on trial becomes an ordinary one, with its folder. */
  #keep(entry: Entry): void {
    if (entry.trial === undefined) return;
    entry.trial = undefined;
    entry.adapter?.keep();
  }

  async #open(name: string, trial: boolean): Promise<(OpenResult & { ok: false }) | { ok: true; sandbox: Sandbox; entry?: Entry }> {
    if (name === DEFAULT_WORKSPACE) return { ok: true, sandbox: this.#root };
    const problem = workspaceNameProblem(name);
    if (problem !== undefined) return { ok: false, reason: 'invalid_name', message: problem };
    await this.#deleting.get(name);
    let entry = this.#entries.get(name);
    if (entry === undefined) {
      const refused = await this.#refuseNew(name);
      if (refused) return refused;
      const full = this.#full(name);
      if (full) return full;
      entry = { name, lastUsed: Date.now(), ...(trial ? { trial: { running: 0 } } : {}) };
      this.#entries.set(name, entry);
    }
    entry.lastUsed = Date.now();
    let sandbox: Sandbox;
    try {
      sandbox = entry.sandbox ?? (await this.#load(entry));
    } catch (error) {
      // A new workspace that could not be made holds no place: the next request tries again.
      if (entry.trial?.running === 0 && this.#entries.get(name) === entry) this.#entries.delete(name);
      throw error;
    }
    this.#follow(sandbox);
    return { ok: true, sandbox, entry };
  }

  /** The refusal of a new workspace `name` when --max-workspaces are there already. */
  #full(name: string): (OpenResult & { ok: false }) | undefined {
    const max = this.#host.options.maxWorkspaces;
    if (this.#entries.size < max) return undefined;
    const tried = this.#entries.size - this.size;
    return {
      ok: false,
      reason: 'limit',
      message:
        `The sandbox already holds ${this.#entries.size} workspaces besides default${tried > 0 ? ` (${tried} of them new, for requests still running)` : ''}, its limit (--max-workspaces ${max}), so "${name}" was not created. ` +
        'Remove workspaces you no longer need with DELETE /w/<name>/_sandbox (GET /_sandbox/workspaces lists them), let idle ones expire (--workspace-ttl), ' +
        'or start the sandbox with a higher --max-workspaces (env DEPOSIT_SANDBOX_MAX_WORKSPACES).',
    };
  }

  /**
   * Makes workspace `name`, new, and fills it with `fill` before any request reaches it (a fork,
   * src/sessions/): a request for the name meanwhile waits for it, as for a workspace loading. It
   * counts toward --max-workspaces like any other. Refused when the name is taken (default
   * included, or a workspace a request is making now), not allowed, or past the limit. When
   * `fill` fails, the workspace is removed again, folder and all, and its error is thrown.
   */
  async create(name: string, fill: (sandbox: Sandbox) => Promise<void>): Promise<CreateResult> {
    const problem = workspaceNameProblem(name);
    if (problem !== undefined) return { ok: false, reason: 'invalid_name', message: problem };
    await this.#deleting.get(name);
    if (name === DEFAULT_WORKSPACE || this.#entries.has(name)) {
      return {
        ok: false,
        reason: 'exists',
        message: `The workspace ${JSON.stringify(name)} exists already; nothing was changed. Pick another name, or remove it first with DELETE /w/${name}/_sandbox.`,
      };
    }
    const refused = await this.#refuseNew(name);
    if (refused) return refused;
    // Looked at again after the awaits: another request may have taken the name meanwhile.
    if (this.#entries.has(name)) return { ok: false, reason: 'exists', message: `The workspace ${JSON.stringify(name)} exists already; nothing was changed.` };
    const full = this.#full(name);
    if (full) return full;
    const entry: Entry = { name, lastUsed: Date.now() };
    this.#entries.set(name, entry);
    try {
      const sandbox = await this.#load(entry, fill);
      this.#follow(sandbox);
      return { ok: true, sandbox };
    } catch (error) {
      if (this.#entries.get(name) === entry) await this.delete(name);
      throw error;
    }
  }

  /** Why a new workspace `name` cannot be made now (the server is closing, or its folder would be another's), or undefined. */
  async #refuseNew(name: string): Promise<(OpenResult & { ok: false }) | undefined> {
    if (this.#closed) return { ok: false, reason: 'closed', message: 'The sandbox is shutting down and opens no new workspace.' };
    const twin = await this.#sharesFolderWith(name);
    if (twin === undefined) return undefined;
    return {
      ok: false,
      reason: 'case_twin',
      message:
        `The workspace ${JSON.stringify(name)} was not created: it differs only in case from the workspace ${JSON.stringify(twin)}, and the data folder is on a file system that does not tell case apart (${this.folder}), ` +
        `where both would share one folder. Use /w/${twin}, or a name that differs in more than case.`,
    };
  }

  /**
   * The workspace whose folder `name`'s would be: one whose name differs only in case, on a file
   * system that folds case (macOS's and Windows' defaults). A removal of such a one is waited for.
   * The file system is asked first (once): elsewhere no name has a twin, and a server making
   * thousands of workspaces does not compare each new name with all the others.
   */
  async #sharesFolderWith(name: string): Promise<string | undefined> {
    const folder = this.folder;
    if (folder === undefined) return undefined;
    this.#foldsCase ??= foldsCase(folder);
    if (!this.#foldsCase) return undefined;
    const removing = caseTwin(name, this.#deleting.keys());
    if (removing !== undefined) await this.#deleting.get(removing);
    return caseTwin(name, this.#entries.keys());
  }

  /** The workspaces loaded now, besides default and those on trial (the integration report reads their counters). */
  loadedSandboxes(): Sandbox[] {
    return [...this.#entries.values()].flatMap((entry) => (entry.sandbox && entry.trial === undefined ? [entry.sandbox] : []));
  }

  /** Every workspace (not those on trial), default first, then by name (waits for those still loading). */
  async list(): Promise<WorkspaceSummary[]> {
    await this.#background;
    const entries = [...this.#entries.values()].filter((entry) => entry.trial === undefined).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const loaded = await Promise.all(entries.map(async (entry) => ({ entry, sandbox: await this.#load(entry).catch(() => undefined) })));
    return [
      summarize(this.#root, undefined),
      ...loaded.filter((item): item is { entry: Entry; sandbox: Sandbox } => item.sandbox !== undefined).map(({ entry, sandbox }) => summarize(sandbox, entry.lastUsed)),
    ];
  }

  /**
   * Removes a workspace. Its work ends first: from this moment a request of that name waits for
   * the removal and then gets a new, empty workspace; a request still running in the removed one
   * has its changes refused (its store's fence, workspace-adapter.ts), so nothing of it reaches
   * the folder a new workspace of the same name will use. Then its clock and callbacks stop
   * (nothing pending is sent afterwards) and its folder is deleted. Resolves with what it held,
   * or why nothing was removed: an unknown name, or `default`, which is the server's own.
   */
  async delete(name: string): Promise<DeleteResult> {
    if (name === DEFAULT_WORKSPACE) {
      return { ok: false, reason: 'permanent', message: 'The workspace default cannot be removed. Empty it with POST /_sandbox/reset.' };
    }
    const problem = workspaceNameProblem(name);
    if (problem !== undefined) return { ok: false, reason: 'not_found', message: problem };
    const entry = this.#entries.get(name);
    if (entry === undefined) {
      return { ok: false, reason: 'not_found', message: `There is no workspace ${JSON.stringify(name)}; nothing was removed. GET /_sandbox/workspaces lists them.` };
    }
    this.#entries.delete(name);
    entry.adapter?.remove();
    let summary: WorkspaceSummary | undefined;
    const done = (async () => {
      const sandbox = await (entry.opening ?? Promise.resolve(entry.sandbox)).catch(() => undefined);
      if (sandbox) {
        summary = summarize(sandbox, entry.lastUsed);
        // Its integration report outlives it: the root keeps the counts until the process exits.
        this.#removed.keepDeleted(name, sandbox.report, (id) => sandbox.merchants.get(id)?.name);
        await this.#keepSession(sandbox);
        // Changes still pending are refused by the fence, which rejects the store's last commit:
        // the store has put them back, so its files are closed with what is on disk.
        await sandbox.close().catch(() => undefined);
        await entry.adapter?.close(() => sandbox.store.snapshot());
      }
      const folder = this.folder;
      // A lock taken over by another process: the folder is that one's now; leave its files alone.
      if (folder !== undefined && this.#host.dataFolder?.lost === undefined) {
        // First the journal says its entries no longer count (a workspace made later under this
        // name starts empty); a crash before the folder goes leaves it whole, from its snapshot.
        await this.#journal?.remove(name);
        removeFolder(folder, name);
      }
    })();
    this.#deleting.set(name, done);
    try {
      await done;
    } finally {
      if (this.#deleting.get(name) === done) this.#deleting.delete(name);
    }
    return {
      ok: true,
      removed: summary ?? {
        name,
        path: `/w/${name}`,
        trades: 0,
        pending_steps: 0,
        callbacks: 0,
        clock: { mode: this.#host.options.clock, now: '' },
        last_used: new Date(entry.lastUsed).toISOString(),
      },
    };
  }

  /**
   * Removes the workspaces unused for --workspace-ttl as of `now` (wall clock), with a log line
   * each. Last use is the later of the last request and the last write (a request that runs
   * long counts from its start, its save from its end), and it is read again for each workspace
   * at the moment it is removed: a workspace used since the sweep began is kept. From that
   * moment a request for it waits for the removal and gets a new workspace, and a request still
   * running in it has its changes refused (see delete), so no acknowledged change is removed.
   */
  async sweep(now: number = Date.now()): Promise<string[]> {
    const ttl = this.#host.options.workspaceTtl;
    if (ttl <= 0 || this.#closed || this.#sweeping) return [];
    this.#sweeping = true;
    try {
      // Last use after a restart includes the writes the workspaces' journal holds. A journal that
      // cannot be read (said at start-up) may hold any workspace's last use: nothing expires then.
      const readable = this.#journal
        ? await this.#journal.ready().then(
            () => true,
            () => false,
          )
        : true;
      if (!readable) return [];
      const began = Date.now();
      const candidates = [...this.#entries.values()].filter((entry) => entry.trial === undefined && now - lastUse(entry) >= ttl);
      const removed: string[] = [];
      for (const entry of candidates) {
        if (this.#closed || this.#entries.get(entry.name) !== entry || entry.trial !== undefined) continue;
        // `now` moved on by the time the sweep has taken so far.
        const at = now + (Date.now() - began);
        const last = lastUse(entry);
        if (at - last < ttl) continue;
        // delete() takes the entry away before its first await: no request comes in between.
        const deleting = this.delete(entry.name);
        removed.push(entry.name);
        await deleting;
        this.#logger.info(
          `workspace "${entry.name}" expired: unused for ${formatDuration(at - last)} (--workspace-ttl ${formatDuration(ttl)}, last used ${new Date(last).toISOString()}); its data was removed`,
        );
      }
      return removed;
    } finally {
      this.#sweeping = false;
    }
  }

  /** Stops the sweep and closes every workspace (flushing its store), `default` last. */
  async close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#sweeper);
    await this.#background;
    await Promise.all([...this.#deleting.values()]);
    // A few at a time: each folds its entries into its db.json, and a thousand snapshot files
    // written at once would run past a low `ulimit -n` (the journal then stays, and nothing is lost).
    const closers = new Limiter(CLOSERS);
    await Promise.all(
      [...this.#entries.values()].map((entry) =>
        closers.run(async () => {
          const sandbox = await (entry.opening ?? Promise.resolve(entry.sandbox)).catch(() => undefined);
          if (sandbox !== undefined && entry.trial === undefined) await this.#keepSession(sandbox);
          await sandbox?.close();
        }),
      ),
    );
    await this.#journal?.close();
    await this.#keepSession(this.#root);
    await this.#root.close();
  }

  /** Writes the workspace's recorded session to --record-dir, if the server has one; a failure is said, not thrown. */
  async #keepSession(sandbox: Sandbox): Promise<void> {
    const folder = this.#host.options.recordDir;
    if (folder === undefined || !sandbox.session.enabled) return;
    try {
      await writeSessionFile(folder, sandbox);
    } catch (error) {
      this.#logger.warn(`the session of workspace "${sandbox.workspace}" could not be written to ${folder} (--record-dir): ${(error as Error).message}`);
    }
  }

  /** Loads (or makes) a workspace's sandbox; `fill`, for a new one, runs before it is handed to any request. */
  #load(entry: Entry, fill?: (sandbox: Sandbox) => Promise<void>): Promise<Sandbox> {
    if (entry.sandbox) return Promise.resolve(entry.sandbox);
    entry.opening ??= (async () => {
      const folder = this.folder;
      const host = this.#host;
      // The server's services, its logger marked with the workspace's name and silent once the workspace is removed.
      const logger = host.services.logger && workspaceLogger(host.services.logger, entry.name);
      const services: SandboxServices = {
        ...host.services,
        ...(logger ? { logger: { info: (line: string) => adapter.removed || logger.info(line), warn: (line: string) => adapter.removed || logger.warn(line) } } : {}),
      };
      // A workspace's journal is fdatasynced when the server's is (startSandbox({ fsync })).
      const rootAdapter = this.#root.store.adapter;
      const fsync = rootAdapter instanceof JournalAdapter && rootAdapter.fsync;
      const journal = this.#sharedJournal();
      const shared = journal ? { workspace: { journal, name: entry.name } } : {};
      const { warn } = loggerOrQuiet(services.logger);
      const adapter = new WorkspaceAdapter(entry.name, folder === undefined ? undefined : join(folder, entry.name), { warn, fsync, ...shared }, entry.trial !== undefined);
      entry.adapter = adapter;
      const seat: SandboxSeat = { name: entry.name, shared: host.shared, rootUrl: host.rootUrl };
      const sandbox = await this.#create(host.options, adapter, { seat, services });
      // Its overdue jobs run now: a workspace is made once the server listens, its address known.
      await sandbox.start();
      if (fill) {
        try {
          await fill(sandbox);
        } catch (error) {
          await sandbox.close().catch(() => undefined);
          throw error;
        }
      }
      entry.sandbox = sandbox;
      return sandbox;
    })().catch((error: unknown) => {
      entry.opening = undefined;
      throw error;
    });
    return entry.opening;
  }
}

/** When a workspace was last used: its last request or its last write, whichever is later. */
function lastUse(entry: Entry): number {
  return Math.max(entry.lastUsed, entry.adapter?.lastWrite ?? 0);
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
