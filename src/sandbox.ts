import { resolve } from 'node:path';
import { Clock } from './clock/clock.js';
import { Scheduler } from './clock/scheduler.js';
import { describeIssues } from './config/issues.js';
import { sandboxOptionsSchema, type SandboxOptions, type SandboxOptionsInput } from './config/options.js';
import { Lifecycle } from './lifecycle/lifecycle.js';
import { registerTimeline } from './lifecycle/timeline.js';
import { loadFixtures, MerchantDirectory } from './merchants/fixtures.js';
import { MemoryAdapter, type StoreAdapter } from './store/adapter.js';
import { JsonFileAdapter } from './store/json-file-adapter.js';
import { Store } from './store/store.js';
import { createRandom, type Random } from './trades/random.js';

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
  /** Base of payment_data.url; set from --public-url, or from the address once listening. */
  publicUrl: string;
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

/**
 * Assembles a sandbox: options, merchants, store, clock, lifecycle, scheduler. Overdue
 * jobs stored by an earlier run are run before this resolves.
 */
export async function createSandbox(input: SandboxOptionsInput = {}, adapter?: StoreAdapter): Promise<Sandbox> {
  const options = parseOptions(input);
  const merchants = new MerchantDirectory(loadFixtures(options.fixtures ? resolve(options.fixtures) : undefined));
  const store = await Store.open(adapter ?? (options.inMemory ? new MemoryAdapter() : new JsonFileAdapter(resolve(options.data))));
  const clock = new Clock(options.clock, store);
  const lifecycle = new Lifecycle(store, clock);
  const scheduler = new Scheduler(store, clock);
  registerTimeline(scheduler, lifecycle);

  let closed: Promise<void> | undefined;
  const sandbox: Sandbox = {
    options,
    store,
    merchants,
    random: createRandom(options.seed),
    clock,
    lifecycle,
    scheduler,
    publicUrl: options.publicUrl ?? `http://${options.host.includes(':') ? `[${options.host}]` : options.host}:${options.port}`,
    close() {
      closed ??= (async () => {
        scheduler.stop();
        await scheduler.idle();
        await store.close();
      })();
      return closed;
    },
  };
  await scheduler.start();
  await store.commit();
  return sandbox;
}
