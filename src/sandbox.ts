import { CALLBACK_JOB, CallbackDispatcher } from './callbacks/callback-dispatcher.js';
import type { Limiter } from './callbacks/limiter.js';
import { Clock } from './clock/clock.js';
import { Scheduler } from './clock/scheduler.js';
import { sandboxOptionsSchema, type SandboxOptions, type SandboxOptionsInput } from './config/options.js';
import { Lifecycle } from './lifecycle/lifecycle.js';
import { registerTimeline } from './lifecycle/timeline.js';
import { transitionTable } from './lifecycle/transitions.js';
import { loggerOrQuiet, type Logger } from './log/logger.js';
import { type Fixtures, MerchantDirectory } from './merchants/fixtures.js';
import { restoreAddedMerchants } from './merchants/added-merchants.js';
import { CreditCheck } from './report/credit-check.js';
import { keepReport } from './report/keep-report.js';
import { MistakeCounter } from './report/mistake-counter.js';
import { watchCallbacks } from './report/watch-callbacks.js';
import { watchPayments } from './report/watch-payments.js';
import type { LoadedScenario } from './scenarios/load-scenarios.js';
import type { ScenarioEngine } from './scenarios/scenario-engine.js';
import { restoreUploadedScenarios } from './scenarios/uploaded-scenarios.js';
import type { Profile } from './profile/profile-schema.js';
import { restoreProfile, type ProfileSource } from './profile/workspace-profile.js';
import { RecordingSender, recordCallbacks } from './sessions/record-callbacks.js';
import { SessionRecorder } from './sessions/session-recorder.js';
import type { StoreAdapter } from './store/adapter.js';
import { Store, WriteFailedError } from './store/store.js';
import { createRandom, type Random } from './trades/random.js';
import { TradeJsonCache } from './trades/trade-json.js';

export class OptionsError extends Error {
  override name = 'OptionsError';
}

/**
 * One tenant of a server: a complete sandbox with its own store, clock, scheduler, callbacks,
 * scenarios and report. The workspace `default` (the unprefixed paths) and every `/w/<name>`
 * are made alike by createSandbox(); what they share, and the data folder, belong to the
 * server (src/server/server.ts). No HTTP in here.
 */
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
  /** The provider profile this sandbox follows now (docs/provider-profile.md): its own upload, else the server's. */
  profile: Profile;
  /** Whether `profile` is the server's (serve --profile) or this workspace's own (PUT /_sandbox/profile). */
  profileSource: ProfileSource;
  /** Sends, logs and replays callbacks; emits 'queued', 'attempt', 'delivered', 'failed'. */
  readonly callbacks: CallbackDispatcher;
  /** What the sandbox was given at creation (its logger); a workspace gets the server's, marked with its name. */
  readonly services: SandboxServices;
  /** One line per notable event (a scenario taking a create), to the logger given; none without one, so no line is built. */
  readonly log: ((line: string) => void) | undefined;
  /** The JSON text of the trades this sandbox's merchants poll (GET answers and callback bodies); its own, like every cache. */
  readonly tradeJson: TradeJsonCache;
  /** This workspace's session as it happens, bounded (--record-limit; docs/sessions.md): requests, answers, callbacks, clock moves. */
  readonly session: SessionRecorder;
  /** The merchant's mistakes seen so far (GET /_sandbox/report). */
  readonly report: MistakeCounter;
  /** Reads the merchant's balance probe (--probe) for the report's callback rows; off without one. */
  readonly credits: CreditCheck;
  /** Base of payment_data.url: the server's public URL and this sandbox's basePath (kept current by the registry). */
  publicUrl: string;
  /** `default`, or the name of the workspace (/w/<name>) this sandbox is. */
  readonly workspace: string;
  /** Path prefix of this sandbox's links and redirects: '' for default, '/w/<name>' for a workspace. */
  readonly basePath: string;
  /** What every workspace of the server shares (the fixtures, the scenario files). */
  readonly shared: SandboxShared;
  /**
   * Runs the jobs that fell due while no sandbox ran on this store, and arms the clock's timers.
   * The server calls it once its address, and so `publicUrl`, is known. Safe to call twice: the
   * second call gets the first's promise.
   */
  start(): Promise<void>;
  /** True once `start()` has finished. */
  started: boolean;
  /** Stops the scheduler, waits for running jobs, flushes the store. */
  close(): Promise<void>;
}

/**
 * What a sandbox is given when it is created, by its caller (the CLI, startSandbox(), a test)
 * through the server, which passes the same to every workspace. Nothing is patched in afterwards.
 */
export interface SandboxServices {
  /** Where every line goes (src/log/logger.ts); none: the sandbox says nothing of its events. */
  readonly logger?: Logger;
}

/** Loaded once per server and shared by its workspaces. */
export interface SandboxShared {
  readonly fixtures: Fixtures;
  readonly scenarios: readonly LoadedScenario[];
  /** The provider profile of serve --profile (or startSandbox({ profile })): every workspace's unless it sets its own. */
  readonly profile: Profile;
  /** How many reads of the merchant's balance probe (--probe) run at once, for the whole server. */
  readonly probeReads: Limiter;
}

/** Where a sandbox sits in its server: its workspace name, what it shares, and the server's URL. */
export interface SandboxSeat {
  /** `default` (the unprefixed paths, basePath '') or the workspace's name (basePath /w/<name>). */
  readonly name: string;
  readonly shared: SandboxShared;
  /** The server's public URL (payment_data.url of a workspace adds /w/<name>). */
  readonly rootUrl: () => string;
}

/** The name of the workspace of the unprefixed paths. */
export const DEFAULT_WORKSPACE = 'default';

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
 * Assembles one sandbox over `adapter`: merchants, store, clock, lifecycle, scheduler,
 * scenarios, callbacks, report. Every tenant of a server, `default` included, is made here, the
 * same way; its overdue jobs wait for `start()`.
 *
 * @example
 *   const sandbox = await createSandbox(parseOptions({ clock: 'manual' }), new MemoryAdapter(), { seat, services: {} });
 */
export async function createSandbox(options: SandboxOptions, adapter: StoreAdapter, settings: { seat: SandboxSeat; services: SandboxServices }): Promise<Sandbox> {
  const { seat, services } = settings;
  const logger = loggerOrQuiet(services.logger);
  const store = await Store.open(adapter, { warn: logger.warn });
  const merchants = restoreAddedMerchants(store, new MerchantDirectory(seat.shared.fixtures));
  const workspace = seat.name;
  const basePath = seat.name === DEFAULT_WORKSPACE ? '' : `/w/${seat.name}`;
  const publicUrl = () => `${seat.rootUrl().replace(/\/+$/, '')}${basePath}`;
  const restored = restoreProfile(store, seat.shared.profile, logger.warn);
  const clock = new Clock(options.clock, store);
  // The table of the profile in force, read at each move: a PUT of the workspace's profile applies to the next one.
  const lifecycle = new Lifecycle(store, clock, () => transitionTable(sandbox.profile.states.intermediate));
  const scheduler = new Scheduler(store, clock, logger.warn);
  registerTimeline(scheduler, lifecycle);
  const tradeJson = new TradeJsonCache();
  const session = new SessionRecorder({
    enabled: options.record,
    limit: options.recordLimit,
    info: { workspace, started: new Date().toISOString(), startClock: clock.nowIso(), clockMode: options.clock, seed: options.seed },
  });
  // The sender keeps what it sent for the session's callback entries (src/sessions/record-callbacks.ts).
  const sender = new RecordingSender(session);
  const callbacks = new CallbackDispatcher({
    sender,
    store,
    clock,
    scheduler,
    merchants,
    publicUrl,
    tradeJson,
    timeoutMs: options.callbackTimeout,
    // Read when it matters, so a PUT of the workspace's profile applies to the next attempt.
    profile: () => sandbox.profile,
    ...(options.callbackRetries !== undefined ? { retries: options.callbackRetries } : {}),
    behaviourFor: (trade) => sandbox.scenarios.get(trade.scenario)?.callbacks,
    ...(basePath ? { workspace: seat.name } : {}),
    warn: logger.warn,
  });
  recordCallbacks(session, { callbacks, sender, merchants, profile: () => sandbox.profile });
  lifecycle.onChange((change) => void callbacks.onChange(change));
  scheduler.handle(CALLBACK_JOB, (job) => callbacks.run(job));
  const report = new MistakeCounter();
  // The counts outlive a restart of a durable sandbox (the meta row `report`).
  const keptReport = keepReport(store, report, logger.warn);
  const credits = new CreditCheck({
    probe: options.probe,
    workspace,
    timeoutMs: options.callbackTimeout,
    slots: seat.shared.probeReads,
    warn: logger.warn,
    states: () => lifecycle.table().states,
  });
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
    random: createRandom(basePath && options.seed !== undefined ? workspaceSeed(options.seed, seat.name) : options.seed),
    clock,
    lifecycle,
    scheduler,
    scenarios: restoreUploadedScenarios(store, seat.shared.scenarios, logger.warn),
    profile: restored.profile,
    profileSource: restored.source,
    callbacks,
    services,
    log: services.logger ? logger.info : undefined,
    tradeJson,
    session,
    report,
    credits,
    // Kept current by the registry as the server learns its address (WorkspaceRegistry.ready).
    publicUrl: publicUrl(),
    workspace,
    basePath,
    shared: seat.shared,
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
          if (!(error instanceof WriteFailedError)) {
            scheduler.stop();
            throw error;
          }
        }
        sandbox.started = true;
      })();
      return starting;
    },
    close() {
      closed ??= (async () => {
        scheduler.stop();
        callbacks.stop();
        await scheduler.idle();
        await callbacks.idle();
        // The balance probe's answers on the last callbacks, for `serve --report` (each read is bounded).
        await credits.settled();
        await keptReport.flush();
        await store.close();
      })();
      return closed;
    },
  };
  return sandbox;
}

/** A workspace's seed (--seed): repeatable, and different from every other workspace's. */
function workspaceSeed(seed: number, name: string): number {
  let hash = seed | 0;
  for (const char of name) hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193);
  return hash;
}
