import type { TransitionTable } from '../lifecycle/transitions.js';
import { type Refusal, refuse } from '../refusals/refusal.js';
import { summarize, type ScenarioSummary } from './describe-scenario.js';
import { BUNDLED_SCENARIOS, loadScenarios, type LoadedScenario } from './load-scenarios.js';
import { matchesScenario, type MatchRequest } from './match-scenario.js';
import { SCENARIO_HEADER, type Scenario } from './scenario.js';
import { compilePattern, type ScenarioPattern } from './scenario-pattern.js';

/**
 * The loaded scenarios, in match order (user folder first, then the bundled ones; files by
 * name, scenarios in file order). Plain TypeScript: no HTTP, no store.
 */
export class ScenarioEngine {
  readonly #entries: readonly LoadedScenario[];
  readonly #byName: ReadonlyMap<string, LoadedScenario>;
  /** Orders (merchant + order) a `first_only` answer was given to, oldest first; bounded. */
  readonly #tried = new Set<string>();
  /** Wall-clock end times of the create delays under way (shutdown reports the longest). */
  readonly #delays = new Set<{ end: number }>();
  /**
   * This engine's regular expressions by source: those its entries' files compiled when they
   * were checked (the server's scenarios are the same entries in every workspace, so their
   * patterns are compiled once and warm in all of them), and any other compiled on its first
   * use. Bounded by the engine's own scenarios (at most MAX_PATTERNS_SIZE instructions per file
   * or upload); a workspace's upload is its own file, so its patterns are its own and dropped
   * with the engine when another upload replaces it.
   */
  readonly #patterns = new Map<string, ScenarioPattern>();
  readonly #compile: (source: string) => ScenarioPattern;
  readonly #pattern = (source: string): ScenarioPattern => {
    let compiled = this.#patterns.get(source);
    if (!compiled) {
      compiled = this.#compile(source);
      this.#patterns.set(source, compiled);
    }
    return compiled;
  };

  /**
   * `options.compile` compiles a regular expression; RE2 (compilePattern) unless given. Only the
   * bench passes another one (JavaScript's RegExp), to measure what RE2 costs.
   */
  constructor(entries: readonly LoadedScenario[], options: { compile?: (source: string) => ScenarioPattern } = {}) {
    this.#entries = entries;
    this.#byName = new Map(entries.map((entry) => [entry.scenario.name.toLowerCase(), entry]));
    this.#compile = options.compile ?? compilePattern;
    if (options.compile) return;
    for (const entry of entries) {
      for (const [source, compiled] of entry.patterns ?? []) if (!this.#patterns.has(source)) this.#patterns.set(source, compiled);
    }
  }

  /**
   * Loads `userFolder` (a folder or one file, optional) in front of the bundled folder
   * (left out with `bundled: false`, as --no-bundled-scenarios does), its timelines checked
   * against `table` (the server's provider profile's; the `sandbox` profile's when left out).
   * Throws a ScenarioError naming file, line and field of every problem.
   */
  static load(userFolder?: string, options: { bundled?: boolean; bundledFolder?: string; table?: TransitionTable } = {}): ScenarioEngine {
    const { bundled = true, bundledFolder = BUNDLED_SCENARIOS } = options;
    return new ScenarioEngine(
      loadScenarios([...(userFolder !== undefined ? [{ path: userFolder, bundled: false }] : []), ...(bundled ? [{ path: bundledFolder, bundled: true }] : [])], options.table),
    );
  }

  /** Scenarios with where they come from, in match order. */
  entries(): readonly LoadedScenario[] {
    return this.#entries;
  }

  names(): string[] {
    return this.#entries.map((entry) => entry.scenario.name);
  }

  list(): ScenarioSummary[] {
    return this.#entries.map(summarize);
  }

  /** The summary of the scenario with this name (where it is written, what it does). */
  describe(name: string): ScenarioSummary | undefined {
    const entry = this.#byName.get(name.toLowerCase());
    return entry ? summarize(entry) : undefined;
  }

  /** The scenario with this name (case-insensitive), e.g. a trade's `scenario`. */
  get(name: string | undefined): Scenario | undefined {
    return name === undefined ? undefined : this.#byName.get(name.toLowerCase())?.scenario;
  }

  /** The first scenario whose match block fits the request, or undefined (the trade then waits). */
  match(request: MatchRequest): Scenario | undefined {
    return this.#entries.find((entry) => matchesScenario(entry.scenario.match, request, this.#pattern))?.scenario;
  }

  /**
   * The scenario for a create request: the one the X-Sandbox-Scenario header names (it wins
   * over matching; an unknown name is an `invalid` refusal), else the first match. A blank header counts as absent.
   */
  select(request: MatchRequest, header: string | undefined): Scenario | undefined | Refusal {
    const name = header?.trim();
    if (!name) return this.match(request);
    const scenario = this.get(name);
    if (!scenario) {
      return refuse.invalid(
        'unknown_scenario',
        `${SCENARIO_HEADER} names ${JSON.stringify(name)}, but no scenario has that name. Known scenarios: ${this.names().join(', ') || '(none)'}. Send one of them, or leave the header out to match scenarios by the request.`,
        [{ field: SCENARIO_HEADER, message: 'is not the name of a loaded scenario' }],
      );
    }
    return scenario;
  }

  /**
   * True the first time this merchant's order meets `scenario` (its `first_only` answer is then
   * given), false for a retry of the same order. Remembers the last 10,000 orders.
   */
  firstTry(scenario: Scenario, request: MatchRequest & { order: string }): boolean {
    const key = `${scenario.name.toLowerCase()}\u0000${request.merchant.toLowerCase()}\u0000${request.order}`;
    if (this.#tried.has(key)) return false;
    if (this.#tried.size >= 10_000) this.#tried.delete(this.#tried.values().next().value as string);
    this.#tried.add(key);
    return true;
  }

  /**
   * Waits before a create answer. Wall clock on purpose, also with --clock manual: the delay
   * imitates a slow provider for the merchant's HTTP client, whose timeouts run in real time.
   */
  wait(ms: number): Promise<void> {
    const delay = { end: Date.now() + ms };
    this.#delays.add(delay);
    return new Promise<void>((resolve) => setTimeout(resolve, ms)).finally(() => this.#delays.delete(delay));
  }

  /** Create delays under way, and the wall-clock ms until the last of them ends (0 when none). */
  delaysUnderWay(): { count: number; longestLeftMs: number } {
    let end = 0;
    for (const delay of this.#delays) end = Math.max(end, delay.end);
    return { count: this.#delays.size, longestLeftMs: Math.max(0, end - Date.now()) };
  }
}
