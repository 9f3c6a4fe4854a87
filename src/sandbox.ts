import { resolve } from 'node:path';
import { CALLBACK_JOB, CallbackDispatcher } from './callbacks/callback-dispatcher.js';
import { Clock } from './clock/clock.js';
import { Scheduler } from './clock/scheduler.js';
import { describeIssues } from './config/issues.js';
import { sandboxOptionsSchema, type SandboxOptions, type SandboxOptionsInput } from './config/options.js';
import { Lifecycle } from './lifecycle/lifecycle.js';
import { registerTimeline } from './lifecycle/timeline.js';
import { loadFixtures, MerchantDirectory, type Fixtures } from './merchants/fixtures.js';
import { MemoryAdapter, type StoreAdapter } from './store/adapter.js';
import { JournalAdapter } from './store/journal-adapter.js';
import { Store } from './store/store.js';
import { createRandom, type Random } from './trades/random.js';
import type { LoadedScenario } from './scenarios/load-scenarios.js';
import { ScenarioEngine } from './scenarios/scenario-engine.js';
import { restoreWorkspaceMerchants } from './workspaces/workspace-merchants.js';
import { restoreWorkspaceScenarios } from './workspaces/workspace-scenarios.js';
import { WorkspaceRegistry } from './workspaces/workspace-registry.js';

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
  /** The loaded scenarios (this workspace's own first, then the --scenarios folder, then the bundled ones). */
  scenarios: ScenarioEngine;
  /** Sends, logs and replays callbacks; emits 'queued', 'attempt', 'delivered', 'failed'. */
  readonly callbacks: CallbackDispatcher;
  /** Base of payment_data.url; set from --public-url, or from the address once listening. */
  publicUrl: string;
  /** `default`, or the name of the workspace (/w/<name>) this sandbox is. */
  readonly workspace: string;
  /** Path prefix of this sandbox's links and redirects: '' for default, '/w/<name>' for a workspace. */
  readonly basePath: string;
  /** What every workspace of the server shares (the fixtures, the scenario files). */
  readonly shared: SandboxShared;
  /** The server's other workspaces; on the default sandbox only. */
  readonly workspaces?: WorkspaceRegistry;
  /** Stops the scheduler, waits for running jobs, flushes the store. */
  close(): Promise<void>;
}

/** Loaded once per server and shared by its workspaces. */
export interface SandboxShared {
  readonly fixtures: Fixtures;
  readonly scenarios: readonly LoadedScenario[];
}

/** How a workspace differs from the default sandbox (see src/workspaces/). */
export interface WorkspaceSeat {
  readonly name: string;
  readonly shared: SandboxShared;
  /** The server's public URL (payment_data.url of the workspace adds /w/<name>). */
  readonly rootUrl: () => string;
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
export async function createSandbox(input: SandboxOptionsInput = {}, adapter?: StoreAdapter, seat?: WorkspaceSeat): Promise<Sandbox> {
  const options = parseOptions(input);
  const shared: SandboxShared = seat?.shared ?? {
    fixtures: loadFixtures(options.fixtures ? resolve(options.fixtures) : undefined),
    scenarios: ScenarioEngine.load(options.scenarios ? resolve(options.scenarios) : undefined).entries(),
  };
  const store = await Store.open(adapter ?? (options.inMemory ? new MemoryAdapter() : new JournalAdapter(resolve(options.data))));
  const merchants = restoreWorkspaceMerchants(store, new MerchantDirectory(shared.fixtures));
  const workspace = seat?.name ?? 'default';
  const basePath = seat ? `/w/${seat.name}` : '';
  const clock = new Clock(options.clock, store);
  const lifecycle = new Lifecycle(store, clock);
  const scheduler = new Scheduler(store, clock);
  registerTimeline(scheduler, lifecycle);
  const callbacks = new CallbackDispatcher({
    store,
    clock,
    scheduler,
    merchants,
    // A workspace's follows the server's, which is known only once it listens.
    publicUrl: seat ? () => `${seat.rootUrl().replace(/\/+$/, '')}${basePath}` : () => sandbox.publicUrl,
    timeoutMs: options.callbackTimeout,
    retries: options.callbackRetries,
    behaviourFor: (trade) => sandbox.scenarios.get(trade.scenario)?.callbacks,
    ...(seat ? { headers: { 'X-Sandbox-Workspace': seat.name } } : {}),
  });
  lifecycle.onChange((change) => void callbacks.onChange(change));
  scheduler.handle(CALLBACK_JOB, (job) => callbacks.run(job));

  let closed: Promise<void> | undefined;
  // Data properties only (no getters): every sandbox object then has the same hidden class,
  // and code that serves many workspaces stays monomorphic.
  const sandbox: Sandbox = {
    options,
    store,
    merchants,
    random: createRandom(seat && options.seed !== undefined ? workspaceSeed(options.seed, seat.name) : options.seed),
    clock,
    lifecycle,
    scheduler,
    scenarios: restoreWorkspaceScenarios(store, shared.scenarios),
    callbacks,
    // A workspace's is kept up to date by the registry on each request (see WorkspaceRegistry.ready).
    publicUrl: seat
      ? `${seat.rootUrl().replace(/\/+$/, '')}${basePath}`
      : (options.publicUrl ?? `http://${options.host.includes(':') ? `[${options.host}]` : options.host}:${options.port}`),
    workspace,
    basePath,
    shared,
    workspaces: undefined,
    close() {
      closed ??= (async () => {
        await sandbox.workspaces?.close();
        scheduler.stop();
        callbacks.stop();
        await scheduler.idle();
        await callbacks.idle();
        await store.close();
      })();
      return closed;
    },
  };
  callbacks.resume();
  await scheduler.start();
  await store.commit();
  if (!seat) {
    const workspaces = new WorkspaceRegistry(sandbox, createSandbox);
    (sandbox as { workspaces?: WorkspaceRegistry }).workspaces = workspaces;
    workspaces.start();
  }
  return sandbox;
}

/** A workspace's seed (--seed): repeatable, and different from every other workspace's. */
function workspaceSeed(seed: number, name: string): number {
  let hash = seed | 0;
  for (const char of name) hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193);
  return hash;
}
