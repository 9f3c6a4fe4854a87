import { resolve } from 'node:path';
import { Clock } from './clock/clock.js';
import { describeIssues } from './config/issues.js';
import { sandboxOptionsSchema, type SandboxOptions, type SandboxOptionsInput } from './config/options.js';
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
  /** Base of payment_data.url; set from --public-url, or from the address once listening. */
  publicUrl: string;
  close(): Promise<void>;
}

export function parseOptions(input: SandboxOptionsInput): SandboxOptions {
  const result = sandboxOptionsSchema.safeParse(input);
  if (!result.success) {
    throw new OptionsError(`Invalid options:\n  ${describeIssues(result.error).map((line) => `--${line.replace(/^(\w+)/, (name) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`))}`).join('\n  ')}`);
  }
  return result.data;
}

export async function createSandbox(input: SandboxOptionsInput = {}, adapter?: StoreAdapter): Promise<Sandbox> {
  const options = parseOptions(input);
  const merchants = new MerchantDirectory(loadFixtures(options.fixtures ? resolve(options.fixtures) : undefined));
  const store = await Store.open(adapter ?? (options.inMemory ? new MemoryAdapter() : new JsonFileAdapter(resolve(options.data))));
  const clock = new Clock(options.clock, store);
  let closed: Promise<void> | undefined;
  return {
    options,
    store,
    merchants,
    random: createRandom(options.seed),
    clock,
    publicUrl: options.publicUrl ?? `http://${options.host.includes(':') ? `[${options.host}]` : options.host}:${options.port}`,
    close() {
      closed ??= store.close();
      return closed;
    },
  };
}
