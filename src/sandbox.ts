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
import { createRandom, type Random } from './trades/random.js';
import { ScenarioEngine } from './scenarios/scenario-engine.js';
import { MistakeCounter } from './report/mistake-counter.js';
import { watchCallbacks } from './report/watch-callbacks.js';

export class OptionsError extends Error {
  override name = 'OptionsError';
}

/** The running parts of one sandbox, shared by its HTTP routes. No HTTP in here. */
export interface Sandbox {
  readonly options: SandboxOptions;
  readonly store: Store;
  readonly merchants: MerchantDirectory;
  readonly random: Random;
  readonly clock: Clock;
  readonly lifecycle: Lifecycle;
  readonly scheduler: Scheduler;
  /** The loaded scenarios (--scenarios folder first, then the bundled ones). */
  readonly scenarios: ScenarioEngine;
  /** Sends, logs and replays callbacks; emits 'queued', 'attempt', 'delivered', 'failed'. */
  readonly callbacks: CallbackDispatcher;
  /** The lock on the data folder (none in memory or with a given adapter); told the URL once listening. */
  readonly dataFolder?: DataFolderLock;
  /** Receives one line per notable event (a scenario taking a create); the CLI prints them. Silent by default. */
  log: (line: string) => void;
  /** The merchant's mistakes seen so far (GET /_sandbox/report). */
  readonly report: MistakeCounter;
  /** Base of payment_data.url; set from --public-url, or from the address once listening. */
  publicUrl: string;
  /** Stops the scheduler, waits for running jobs, flushes the store. */
  close(): Promise<void>;
}

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

/**
 * Assembles a sandbox: options, merchants, store, clock, lifecycle, scheduler. Overdue
 * jobs stored by an earlier run are run before this resolves.
 */
export async function createSandbox(input: SandboxOptionsInput = {}, adapter?: StoreAdapter): Promise<Sandbox> {
  const options = parseOptions(input);
  const merchants = new MerchantDirectory(loadFixtures(options.fixtures ? resolve(options.fixtures) : undefined));
  const scenarios = ScenarioEngine.load(options.scenarios ? resolve(options.scenarios) : undefined, { bundled: options.bundledScenarios });
  // One process per data folder: the lock comes first, before anything is read or written.
  const dataFolder = adapter || options.inMemory ? undefined : await DataFolderLock.acquire(resolve(options.data));
  try {
    return await assemble(options, merchants, scenarios, adapter, dataFolder);
  } catch (error) {
    await dataFolder?.release();
    throw error;
  }
}

async function assemble(
  options: SandboxOptions,
  merchants: MerchantDirectory,
  scenarios: ScenarioEngine,
  adapter: StoreAdapter | undefined,
  dataFolder: DataFolderLock | undefined,
): Promise<Sandbox> {
  const store = await Store.open(adapter ?? (options.inMemory ? new MemoryAdapter() : new JournalAdapter(resolve(options.data))));
  const clock = new Clock(options.clock, store);
  const lifecycle = new Lifecycle(store, clock);
  const scheduler = new Scheduler(store, clock);
  registerTimeline(scheduler, lifecycle);
  const callbacks = new CallbackDispatcher({
    store,
    clock,
    scheduler,
    merchants,
    publicUrl: () => sandbox.publicUrl,
    timeoutMs: options.callbackTimeout,
    retries: options.callbackRetries,
    behaviourFor: (trade) => scenarios.get(trade.scenario)?.callbacks,
  });
  lifecycle.onChange((change) => void callbacks.onChange(change));
  scheduler.handle(CALLBACK_JOB, (job) => callbacks.run(job));
  const report = new MistakeCounter();
  watchCallbacks(callbacks, report);

  let closed: Promise<void> | undefined;
  const sandbox: Sandbox = {
    options,
    store,
    merchants,
    random: createRandom(options.seed),
    clock,
    lifecycle,
    scheduler,
    scenarios,
    callbacks,
    ...(dataFolder ? { dataFolder } : {}),
    log: () => {},
    report,
    publicUrl: options.publicUrl ?? `http://${options.host.includes(':') ? `[${options.host}]` : options.host}:${options.port}`,
    close() {
      closed ??= (async () => {
        scheduler.stop();
        callbacks.stop();
        await scheduler.idle();
        await callbacks.idle();
        try {
          await store.close();
        } finally {
          await dataFolder?.release();
        }
      })();
      return closed;
    },
  };
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
  return sandbox;
}
