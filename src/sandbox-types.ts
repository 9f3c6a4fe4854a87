/**
 * The shape of a sandbox, as types only: what every layer reads (routes, logic, the workspace
 * registry) without importing the module that assembles one (src/sandbox.ts). It imports
 * nothing at run time.
 */
import type { CallbackDispatcher } from './callbacks/callback-dispatcher.js';
import type { Clock } from './clock/clock.js';
import type { Scheduler } from './clock/scheduler.js';
import type { SandboxOptions } from './config/options.js';
import type { Lifecycle } from './lifecycle/lifecycle.js';
import type { Logger } from './log/logger.js';
import type { Fixtures, MerchantDirectory } from './merchants/fixtures.js';
import type { Limiter } from './callbacks/limiter.js';
import type { CreditCheck } from './report/credit-check.js';
import type { MistakeCounter } from './report/mistake-counter.js';
import type { LoadedScenario } from './scenarios/load-scenarios.js';
import type { ScenarioEngine } from './scenarios/scenario-engine.js';
import type { DataFolderLock } from './store/data-folder-lock.js';
import type { Store } from './store/store.js';
import type { Random } from './trades/random.js';
import type { TradeJsonCache } from './trades/trade-json.js';
import type { WorkspaceSummary } from './workspaces/workspace-answers.js';

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
  /** The lock on the data folder (none in memory or with a given adapter); told the URL once listening. */
  readonly dataFolder?: DataFolderLock;
  /** What the sandbox was given at creation (its logger); a workspace gets the server's, marked with its name. */
  readonly services: SandboxServices;
  /** One line per notable event (a scenario taking a create), to the logger given; none without one, so no line is built. */
  readonly log: ((line: string) => void) | undefined;
  /** The JSON text of the trades this sandbox's merchants poll (GET answers and callback bodies); its own, like every cache. */
  readonly tradeJson: TradeJsonCache;
  /** The merchant's mistakes seen so far (GET /_sandbox/report). */
  readonly report: MistakeCounter;
  /** Reads the merchant's balance probe (--probe) for the report's callback rows; off without one. */
  readonly credits: CreditCheck;
  /** Base of payment_data.url; set from --public-url, or from the address once listening. */
  publicUrl: string;
  /** `default`, or the name of the workspace (/w/<name>) this sandbox is. */
  readonly workspace: string;
  /** Path prefix of this sandbox's links and redirects: '' for default, '/w/<name>' for a workspace. */
  readonly basePath: string;
  /** What every workspace of the server shares (the fixtures, the scenario files). */
  readonly shared: SandboxShared;
  /** The server's other workspaces (src/workspaces/workspace-registry.ts); on the default sandbox only. */
  readonly workspaces?: Workspaces;
  /**
   * Runs the jobs that fell due while no sandbox ran on this store, and arms the clock's timers.
   * `createSandbox()` calls it unless told to leave it to `listen()`, which calls it once the
   * address, and so `publicUrl`, is known. Safe to call twice: the second call gets the first's promise.
   */
  start(): Promise<void>;
  /** True once `start()` has finished. */
  started: boolean;
  /** Stops the scheduler, waits for running jobs, flushes the store. */
  close(): Promise<void>;
}

/**
 * What a sandbox is given when it is created, by its caller (the CLI, startSandbox(), a test)
 * or, for a workspace, by the registry, which passes on the server's. Nothing is patched in
 * afterwards, so every workspace gets what the default sandbox gets.
 */
export interface SandboxServices {
  /** Where every line goes (src/log/logger.ts); none: the sandbox says nothing of its events. */
  readonly logger?: Logger;
}

/** Loaded once per server and shared by its workspaces. */
export interface SandboxShared {
  readonly fixtures: Fixtures;
  readonly scenarios: readonly LoadedScenario[];
  /** How many reads of the merchant's balance probe (--probe) run at once, for the whole server. */
  readonly probeReads: Limiter;
}

/** How a workspace differs from the default sandbox (see src/workspaces/). */
export interface WorkspaceSeat {
  readonly name: string;
  readonly shared: SandboxShared;
  /** The server's public URL (payment_data.url of the workspace adds /w/<name>). */
  readonly rootUrl: () => string;
}

export type OpenResult = { ok: true; sandbox: Sandbox } | { ok: false; reason: 'invalid_name' | 'case_twin' | 'limit' | 'closed'; message: string };

/** How a request in a workspace was answered: what decides whether a workspace it created is kept. */
export interface RequestOutcome {
  /** The HTTP status of the answer. */
  readonly status: number;
  /** Whether a scenario forced the answer (it carries X-Sandbox-Scenario). */
  readonly scenario: boolean;
}

/** A workspace opened for one request; `leave` is called once with the request's answer. */
export type EnterResult = { ok: true; sandbox: Sandbox; leave: (outcome: RequestOutcome) => void } | (OpenResult & { ok: false });

/** The workspaces of a server, as the app and startSandbox() use them (WorkspaceRegistry). */
export interface Workspaces {
  /** How many workspaces besides default exist (loaded or not). */
  readonly size: number;
  /** The folder of the workspaces, or undefined when the server keeps nothing on disk. */
  readonly folder: string | undefined;
  start(): void;
  loaded(): Promise<void>;
  has(name: string): boolean;
  ready(name: string): Sandbox | undefined;
  open(name: string): Promise<OpenResult>;
  /** The workspace for one request: a new one is kept only if the request is accepted (see WorkspaceRegistry.enter). */
  enter(name: string): Promise<EnterResult>;
  list(): Promise<WorkspaceSummary[]>;
  /** The workspaces loaded now (the integration report of the server reads theirs). */
  loadedSandboxes(): Sandbox[];
  delete(name: string): Promise<WorkspaceSummary | undefined>;
  sweep(now?: number): Promise<string[]>;
  close(): Promise<void>;
}
