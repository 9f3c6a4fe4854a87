import { resolve } from 'node:path';
import { Limiter } from '../callbacks/limiter.js';
import type { SandboxOptions, SandboxOptionsInput } from '../config/options.js';
import { loggerOrQuiet } from '../log/logger.js';
import { loadFixtures } from '../merchants/fixtures.js';
import { ScenarioEngine } from '../scenarios/scenario-engine.js';
import { DEFAULT_PROFILE, loadProfile } from '../profile/load-profile.js';
import { transitionTable } from '../lifecycle/transitions.js';
import { createSandbox, DEFAULT_WORKSPACE, parseOptions, type Sandbox, type SandboxServices, type SandboxShared } from '../sandbox.js';
import { MemoryAdapter, type StoreAdapter } from '../store/adapter.js';
import { DataFolderLock } from '../store/data-folder-lock.js';
import { JournalAdapter } from '../store/journal-adapter.js';
import { WorkspaceRegistry } from '../workspaces/workspace-registry.js';
import { formatUrl } from './format-url.js';

/** Reads of the merchant's balance probe (--probe) under way at once, for the whole server. */
const PROBE_READS_AT_ONCE = 16;

export interface ServerSettings {
  /** Store the workspace default here instead of the data folder (a test's adapter); no lock is taken then. */
  adapter?: StoreAdapter;
  /** Leave `start()` to `listen()`, which knows the address that overdue jobs' callbacks must carry. */
  deferStart?: boolean;
  /** Its logger (and whatever else each sandbox is given), passed to every workspace. */
  services?: SandboxServices;
  /**
   * With a data folder: fdatasync the journal at every group commit (`startSandbox({ fsync })`);
   * the workspaces do the same. The data folder is locked as without it.
   */
  fsync?: boolean;
}

/**
 * One running deposit-sandbox: the data folder's lock, what every tenant shares (the fixtures,
 * the scenario files, the balance probe's slots), and its tenants, the workspaces (the
 * registry), `default` among them. The app (src/app.ts) and listen() (./listen.ts) serve it.
 *
 * @example
 *   const server = await createServer({ inMemory: true });
 *   const app = createApp(server);
 *   await server.close();
 */
export interface Server {
  readonly options: SandboxOptions;
  readonly services: SandboxServices;
  readonly shared: SandboxShared;
  /** The lock on the data folder (none in memory or with a given adapter); told the URL once listening. */
  readonly dataFolder: DataFolderLock | undefined;
  /** Every workspace, `default` included (src/workspaces/workspace-registry.ts). */
  readonly workspaces: WorkspaceRegistry;
  /** The workspace `default`: the unprefixed paths. */
  readonly root: Sandbox;
  /** The base of every payment_data.url: --public-url, or the address once listening. */
  publicUrl: string;
  /** Runs the overdue jobs of `default`, then loads the other workspaces. Safe to call twice. */
  start(): Promise<void>;
  readonly started: boolean;
  /** Closes every workspace (each flushes its store), then releases the data folder. Safe to call twice. */
  close(): Promise<void>;
}

/** Starts a server: takes the data folder's lock first, then makes the workspace `default` and the registry. */
export async function createServer(input: SandboxOptionsInput = {}, settings: ServerSettings = {}): Promise<Server> {
  const options = parseOptions(input);
  const services = settings.services ?? {};
  const profile = loadProfile(options.profile ?? DEFAULT_PROFILE);
  const shared: SandboxShared = {
    fixtures: loadFixtures(options.fixtures ? resolve(options.fixtures) : undefined),
    // Timelines may name the server profile's intermediate states (a workspace of another profile is told at create).
    scenarios: ScenarioEngine.load(options.scenarios ? resolve(options.scenarios) : undefined, {
      bundled: options.bundledScenarios,
      table: transitionTable(profile.states.intermediate),
    }).entries(),
    profile,
    probeReads: new Limiter(PROBE_READS_AT_ONCE),
  };
  const logger = loggerOrQuiet(services.logger);
  // One process per data folder: the lock comes first, before anything is read or written.
  const dataFolder = settings.adapter || options.inMemory ? undefined : await DataFolderLock.acquire(resolve(options.data), logger.warn);
  try {
    const adapter = settings.adapter ?? (options.inMemory ? new MemoryAdapter() : new JournalAdapter(resolve(options.data), { warn: logger.warn, fsync: settings.fsync ?? false }));
    const server = await assemble(options, services, shared, dataFolder, adapter);
    if (!settings.deferStart) await server.start();
    return server;
  } catch (error) {
    await dataFolder?.release();
    throw error;
  }
}

async function assemble(options: SandboxOptions, services: SandboxServices, shared: SandboxShared, dataFolder: DataFolderLock | undefined, adapter: StoreAdapter): Promise<Server> {
  let publicUrl = options.publicUrl ?? formatUrl(options.host, options.port);
  const rootUrl = () => publicUrl;
  const root = await createSandbox(options, adapter, { seat: { name: DEFAULT_WORKSPACE, shared, rootUrl }, services });
  const workspaces = new WorkspaceRegistry({ options, services, shared, dataFolder, rootUrl, root, create: createSandbox });
  let starting: Promise<void> | undefined;
  let closing: Promise<void> | undefined;
  let started = false;
  return {
    options,
    services,
    shared,
    dataFolder,
    workspaces,
    root,
    get publicUrl() {
      return publicUrl;
    },
    set publicUrl(url: string) {
      publicUrl = url;
      root.publicUrl = url;
    },
    get started() {
      return started;
    },
    start() {
      starting ??= (async () => {
        await root.start();
        started = true;
        // The workspaces load (and run their overdue jobs) once the server's address is known too.
        workspaces.start();
      })();
      return starting;
    },
    close() {
      closing ??= (async () => {
        try {
          await workspaces.close();
        } finally {
          await dataFolder?.release();
        }
      })();
      return closing;
    },
  };
}
