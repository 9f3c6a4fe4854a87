import { resolve } from 'node:path';
import { CALLBACK_JOB, CallbackDispatcher } from './callbacks/callback-dispatcher.js';
import { Clock } from './clock/clock.js';
import { Scheduler } from './clock/scheduler.js';
import { describeIssues } from './config/issues.js';
import { sandboxOptionsSchema, type SandboxOptions, type SandboxOptionsInput } from './config/options.js';
import { Lifecycle } from './lifecycle/lifecycle.js';
import { registerTimeline } from './lifecycle/timeline.js';
import { loadFixtures, MerchantDirectory } from './merchants/fixtures.js';
import { MemoryAdapter, type StoreAdapter } from './store/adapter.js';
import { JournalAdapter } from './store/journal-adapter.js';
import { Store } from './store/store.js';
import { createRandom, type Random } from './trades/random.js';
import { ScenarioEngine } from './scenarios/scenario-engine.js';

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
  /** Base of payment_data.url; set from --public-url, or from the address once listening. */
  publicUrl: string;
  /**
   * Runs the jobs that fell due while no sandbox ran on this store, and arms the clock's timers.
   * `createSandbox()` calls it unless told to leave it to `listen()`, which calls it once the
   * address, and so `publicUrl`, is known. Safe to call twice: the second call gets the first's promise.
   */
  start(): Promise<void>;
  /** True once `start()` has finished. */
  readonly started: boolean;
  /** Stops the scheduler, waits for running jobs, flushes the store. */
  close(): Promise<void>;
}

export function parseOptions(input: SandboxOptionsInput): SandboxOptions {
  const result = sandboxOptionsSchema.safeParse(input);
  if (!result.success) {
    const flag = (line: string) => `--${line.replace(/^(\w+)/, (name) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`))}`;
    throw new OptionsError(`Invalid options:\n  ${describeIssues(result.error).map(flag).join('\n  ')}`);
  }
  return result.data;
}

export interface CreateSandboxSettings {
  /**
   * Leave `start()` to `listen()`: overdue jobs build callback bodies with `payment_data.url`,
   * which must carry the real address (with --port 0 it is known only once listening).
   */
  deferStart?: boolean;
}

/**
 * Assembles a sandbox: options, merchants, store, clock, lifecycle, scheduler. Overdue
 * jobs stored by an earlier run are run before this resolves, unless `deferStart` leaves
 * them to `listen()`.
 */
export async function createSandbox(input: SandboxOptionsInput = {}, adapter?: StoreAdapter, settings: CreateSandboxSettings = {}): Promise<Sandbox> {
  const options = parseOptions(input);
  const merchants = new MerchantDirectory(loadFixtures(options.fixtures ? resolve(options.fixtures) : undefined));
  const scenarios = ScenarioEngine.load(options.scenarios ? resolve(options.scenarios) : undefined);
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

  let closed: Promise<void> | undefined;
  let starting: Promise<void> | undefined;
  let started = false;
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
    publicUrl: options.publicUrl ?? `http://${options.host.includes(':') ? `[${options.host}]` : options.host}:${options.port}`,
    get started() {
      return started;
    },
    start() {
      starting ??= (async () => {
        callbacks.resume();
        await scheduler.start();
        await store.commit();
        started = true;
      })();
      return starting;
    },
    close() {
      closed ??= (async () => {
        scheduler.stop();
        callbacks.stop();
        await scheduler.idle();
        await callbacks.idle();
        await store.close();
      })();
      return closed;
    },
  };
  if (!settings.deferStart) await sandbox.start();
  return sandbox;
}
