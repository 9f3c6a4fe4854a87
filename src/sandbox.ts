import { resolve } from 'node:path';
import { CALLBACK_JOB, CallbackDispatcher } from './callbacks/callback-dispatcher.js';
import { Clock } from './clock/clock.js';
import { Scheduler } from './clock/scheduler.js';
import { sandboxOptionsSchema, type SandboxOptions, type SandboxOptionsInput } from './config/options.js';
import { Lifecycle } from './lifecycle/lifecycle.js';
import { registerTimeline } from './lifecycle/timeline.js';
import { loadFixtures, MerchantDirectory } from './merchants/fixtures.js';
import { MemoryAdapter, type StoreAdapter } from './store/adapter.js';
import { DataFolderLock } from './store/data-folder-lock.js';
import { JournalAdapter } from './store/journal-adapter.js';
import { StorageError, Store } from './store/store.js';
import { createRandom } from './trades/random.js';
import { TradeJsonCache } from './trades/trade-json.js';
import { ScenarioEngine } from './scenarios/scenario-engine.js';
import { Limiter } from './callbacks/limiter.js';
import { CreditCheck } from './report/credit-check.js';
import { MistakeCounter } from './report/mistake-counter.js';
import { watchCallbacks } from './report/watch-callbacks.js';
import { watchPayments } from './report/watch-payments.js';
import { restoreAddedMerchants } from './merchants/added-merchants.js';
import { restoreUploadedScenarios } from './scenarios/uploaded-scenarios.js';
import { WorkspaceRegistry } from './workspaces/workspace-registry.js';

/** Reads of the merchant's balance probe (--probe) under way at once, for the whole server. */
const PROBE_READS_AT_ONCE = 16;

export class OptionsError extends Error {
  override name = 'OptionsError';
}

export type { OpenResult, Sandbox, SandboxServices, SandboxShared, Workspaces, WorkspaceSeat } from './sandbox-types.js';
import type { Sandbox, SandboxServices, SandboxShared, WorkspaceSeat } from './sandbox-types.js';

/**
 * Validates start-up options. `names` says how each option was given (`--port`, or the
 * environment variable `PORT` / `DEPOSIT_SANDBOX_PORT`); an error names that, else the flag.
 */
export function parseOptions(input: SandboxOptionsInput, names: Readonly<Record<string, string>> = {}): SandboxOptions {
  const result = sandboxOptionsSchema.safeParse(input);
  if (!result.success) {
    const flag = (key: string) => names[key] ?? `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
    const lines = result.error.issues.map((issue) => {
      const [key, ...rest] = issue.path.map(String);
      const label = key === undefined ? '(options)' : `${flag(key)}${rest.length > 0 ? `[${rest.join('][')}]` : ''}`;
      return `${label}: ${issue.message}`;
    });
    throw new OptionsError(`Invalid options:\n  ${lines.join('\n  ')}`);
  }
  return result.data;
}

export interface CreateSandboxSettings {
  /**
   * Leave `start()` to `listen()`: overdue jobs build callback bodies with `payment_data.url`,
   * which must carry the real address (with --port 0 it is known only once listening).
   */
  deferStart?: boolean;
  /** Make it a workspace of a server (src/workspaces/) rather than the server's default sandbox. */
  seat?: WorkspaceSeat;
  /** Its logger (and whatever else each sandbox is given); a workspace is given the server's by the registry. */
  services?: SandboxServices;
  /**
   * With a data folder: fdatasync the journal at every group commit (`startSandbox({ fsync })`);
   * the server's workspaces do the same. The data folder is locked as without it.
   */
  fsync?: boolean;
}

/**
 * Assembles a sandbox: options, merchants, store, clock, lifecycle, scheduler. Overdue
 * jobs stored by an earlier run are run before this resolves. Without a `seat` it is the
 * server's default sandbox: it holds the data folder's lock and the registry of workspaces;
 * with one it is a workspace (src/workspaces/), stored in a sub-folder under the same lock.
 * Overdue jobs wait for `start()` when `deferStart` leaves them to `listen()` (so their callbacks
 * carry the listening address).
 */
export async function createSandbox(input: SandboxOptionsInput = {}, adapter?: StoreAdapter, settings: CreateSandboxSettings = {}): Promise<Sandbox> {
  const { seat } = settings;
  const options = parseOptions(input);
  const shared: SandboxShared = seat?.shared ?? {
    fixtures: loadFixtures(options.fixtures ? resolve(options.fixtures) : undefined),
    scenarios: ScenarioEngine.load(options.scenarios ? resolve(options.scenarios) : undefined, { bundled: options.bundledScenarios }).entries(),
    probeReads: new Limiter(PROBE_READS_AT_ONCE),
  };
  // One process per data folder: the lock comes first, before anything is read or written.
  const logger = settings.services?.logger;
  const dataFolder = seat || adapter || options.inMemory ? undefined : await DataFolderLock.acquire(resolve(options.data), logger ? (line) => logger.warn(line) : undefined);
  try {
    return await assemble(options, shared, adapter, settings, dataFolder);
  } catch (error) {
    await dataFolder?.release();
    throw error;
  }
}

async function assemble(options: SandboxOptions, shared: SandboxShared, adapter: StoreAdapter | undefined, settings: CreateSandboxSettings, dataFolder: DataFolderLock | undefined): Promise<Sandbox> {
  const { seat } = settings;
  const services = settings.services ?? {};
  const logger = services.logger;
  const warn = logger ? { warn: (line: string) => logger.warn(line) } : {};
  const store = await Store.open(adapter ?? (options.inMemory ? new MemoryAdapter() : new JournalAdapter(resolve(options.data), { ...warn, fsync: settings.fsync ?? false })), warn);
  const merchants = restoreAddedMerchants(store, new MerchantDirectory(shared.fixtures));
  const workspace = seat?.name ?? 'default';
  const basePath = seat ? `/w/${seat.name}` : '';
  const clock = new Clock(options.clock, store);
  const lifecycle = new Lifecycle(store, clock);
  const scheduler = new Scheduler(store, clock, logger ? (line) => logger.warn(line) : undefined);
  registerTimeline(scheduler, lifecycle);
  const tradeJson = new TradeJsonCache();
  const callbacks = new CallbackDispatcher({
    store,
    clock,
    scheduler,
    merchants,
    // A workspace's follows the server's, which is known only once it listens.
    publicUrl: seat ? () => `${seat.rootUrl().replace(/\/+$/, '')}${basePath}` : () => sandbox.publicUrl,
    tradeJson,
    timeoutMs: options.callbackTimeout,
    retries: options.callbackRetries,
    behaviourFor: (trade) => sandbox.scenarios.get(trade.scenario)?.callbacks,
    ...(seat ? { headers: { 'X-Sandbox-Workspace': seat.name } } : {}),
    ...(logger ? { warn: (line: string) => logger.warn(line) } : {}),
  });
  lifecycle.onChange((change) => void callbacks.onChange(change));
  scheduler.handle(CALLBACK_JOB, (job) => callbacks.run(job));
  const report = new MistakeCounter();
  const credits = new CreditCheck({ probe: options.probe, workspace, timeoutMs: options.callbackTimeout, slots: shared.probeReads, warn: logger ? (line) => logger.warn(line) : undefined });
  watchCallbacks(callbacks, report, store, credits);
  watchPayments(lifecycle, report);

  let closed: Promise<void> | undefined;
  // Data properties only (no getters, no optional spreads): every sandbox object then has the
  // same hidden class, and code that serves many workspaces stays monomorphic.
  let starting: Promise<void> | undefined;
  const sandbox: Sandbox = {
    options,
    store,
    merchants,
    random: createRandom(seat && options.seed !== undefined ? workspaceSeed(options.seed, seat.name) : options.seed),
    clock,
    lifecycle,
    scheduler,
    scenarios: restoreUploadedScenarios(store, shared.scenarios, logger ? (line) => logger.warn(line) : undefined),
    callbacks,
    dataFolder,
    services,
    log: logger ? (line) => logger.info(line) : undefined,
    tradeJson,
    report,
    credits,
    // A workspace's is kept up to date by the registry on each request (see WorkspaceRegistry.ready).
    publicUrl: seat ? `${seat.rootUrl().replace(/\/+$/, '')}${basePath}` : (options.publicUrl ?? `http://${options.host.includes(':') ? `[${options.host}]` : options.host}:${options.port}`),
    workspace,
    basePath,
    shared,
    workspaces: undefined,
    started: false,
    start() {
      starting ??= (async () => {
        try {
          callbacks.resume();
          await scheduler.start();
          await store.commit();
        } catch (error) {
          // A full disk at start-up does not stop the sandbox: reads work, the store logged it, and
          // the scheduler tries the due jobs again by itself.
          if (!(error instanceof StorageError)) {
            scheduler.stop();
            throw error;
          }
        }
        sandbox.started = true;
        // Workspaces load (and run their overdue jobs) once the server's address is known too.
        sandbox.workspaces?.start();
      })();
      return starting;
    },
    close() {
      closed ??= (async () => {
        await sandbox.workspaces?.close();
        scheduler.stop();
        callbacks.stop();
        await scheduler.idle();
        await callbacks.idle();
        // The balance probe's answers on the last callbacks, for `serve --report` (each read is bounded).
        await credits.settled();
        try {
          await store.close();
        } finally {
          await dataFolder?.release();
        }
      })();
      return closed;
    },
  };
  if (!seat) (sandbox as { workspaces?: WorkspaceRegistry }).workspaces = new WorkspaceRegistry(sandbox, createSandbox, logger);
  if (!settings.deferStart) await sandbox.start();
  return sandbox;
}

/** A workspace's seed (--seed): repeatable, and different from every other workspace's. */
function workspaceSeed(seed: number, name: string): number {
  let hash = seed | 0;
  for (const char of name) hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193);
  return hash;
}
