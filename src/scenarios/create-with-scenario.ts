import type { Scheduler } from '../clock/scheduler.js';
import { TIMELINE_JOB } from '../lifecycle/timeline.js';
import { codedText } from '../i18n/coded-text.js';
import { Refusal, refuse } from '../refusals/refusal.js';
import { transitionTable, type TransitionTable } from '../lifecycle/transitions.js';
import { timelineProblem, type TimelineProblem } from './check-timeline.js';
import type { DepositRequest } from '../trades/requests.js';
import { createTrade, orderUsed, type TradeServiceDeps } from '../trades/service.js';
import type { TradeRecord } from '../trades/trade.js';
import { DEFAULT_CODES } from './describe-scenario.js';
import type { ScenarioEngine } from './scenario-engine.js';
import { SCENARIO_HEADER, type AnswerAfterSave, type Scenario } from './scenario.js';

export interface ScenarioCreateDeps extends TradeServiceDeps {
  scenarios: ScenarioEngine;
  scheduler: Scheduler;
  /** Receives one line per create a scenario takes (the CLI prints it; silent by default). */
  log?: (line: string) => void;
  /**
   * The provider profile in force: whether the 422 for a repeated order names the earlier trade
   * (yes when left out), and the intermediate states a scenario's timeline may name (none when left out).
   */
  profile?: {
    readonly name?: string;
    readonly requests: { readonly duplicate_order_names_trade: boolean };
    readonly states?: { readonly intermediate: readonly string[] };
  };
}

/**
 * The line logged when a scenario takes a create request, e.g.
 * `scenario "confirm" took order "sbx-confirm-1" (merchant 6f1c…): confirmed after 5s [scenarios/10-outcomes.yaml:9, order starting with "sbx-confirm-"]`.
 */
export function scenarioLogLine(engine: ScenarioEngine, scenario: Scenario, request: DepositRequest, byHeader: boolean): string {
  const summary = engine.describe(scenario.name);
  const why = byHeader ? `picked by the ${SCENARIO_HEADER} header` : (summary?.magic ?? 'matched');
  const where = summary ? `${summary.source}:${summary.line}, ` : '';
  return `scenario "${scenario.name}" took ${request.type} order ${JSON.stringify(request.order)} (merchant ${request.merchant}): ${summary?.does ?? 'scripted'} [${where}${why}]`;
}

/** The answer a scenario's `respond` forces on the create request, as a `forced` refusal. */
export function forcedRefusal(scenario: Scenario): Refusal | undefined {
  const respond = scenario.respond;
  if (!respond) return undefined;
  return new Refusal('forced', respond.code ?? DEFAULT_CODES[respond.status], respond.message, {
    details: respond.field !== undefined ? [{ field: respond.field, message: respond.message }] : [],
    status: respond.status,
    scenario: scenario.name,
    ...(respond.retry_after !== undefined ? { retryAfterMs: respond.retry_after } : {}),
  });
}

/** What timelineProblem() found for a scenario under a table, remembered: creates ask again and again. */
const problems = new WeakMap<Scenario, WeakMap<TransitionTable, TimelineProblem | null>>();

/**
 * The refusal of a scenario whose timeline cannot run under the provider profile in force: it
 * names a state the profile lacks (the scenario was written for another profile, or the profile
 * changed since it was loaded), or a move its table does not allow. Undefined when it can run.
 */
export function scenarioProfileRefusal(scenario: Scenario, table: TransitionTable, profileName: string | undefined, field: string): Refusal | undefined {
  if (!scenario.timeline) return undefined;
  let byTable = problems.get(scenario);
  if (!byTable) {
    byTable = new WeakMap();
    problems.set(scenario, byTable);
  }
  let problem = byTable.get(table);
  if (problem === undefined) {
    problem = timelineProblem(scenario.timeline, table) ?? null;
    byTable.set(table, problem);
  }
  if (problem === null) return undefined;
  const profile = profileName === undefined ? 'the provider profile in force' : `the provider profile "${profileName}" in force`;
  const [index] = problem.path;
  const state = typeof index === 'number' ? scenario.timeline[index]?.state : undefined;
  const unknown = state !== undefined && !table.knows(state);
  const message = unknown
    ? `Scenario "${scenario.name}" moves the trade to ${JSON.stringify(state)} (timeline[${index}]), a state ${profile} does not have (its states: ${table.states.join(', ')}). Add it to the profile's states.intermediate (docs/provider-profile.md), or change the scenario's timeline. Nothing was created.`
    : `Scenario "${scenario.name}" cannot run under ${profile}: timeline[${index}].${problem.path[1]} ${problem.message}. Nothing was created.`;
  return refuse.invalid(unknown ? 'scenario_state_unknown' : 'scenario_timeline_invalid', message, [
    { field, message: unknown ? `names the state ${JSON.stringify(state)}, which the profile does not have` : problem.message },
  ]);
}

/** Schedules a scenario's timeline for a new trade; `after` counts from the trade's creation (sandbox clock). */
export function scheduleTimeline(scheduler: Scheduler, trade: TradeRecord, scenario: Scenario): void {
  const created = Date.parse(trade.created_at);
  for (const step of scenario.timeline ?? []) {
    const note = step.note !== undefined ? codedText('history.scenario.note', { scenario: scenario.name, note: step.note }) : codedText('history.scenario', { scenario: scenario.name });
    scheduler.schedule(TIMELINE_JOB, created + step.after, { state: step.state, note: note.text, note_code: note.code, note_params: note.params }, trade.id);
  }
}

/**
 * A create request with scenarios applied, for a validated and authenticated request:
 * pick the scenario (header, else first match), wait its response delay, return its forced
 * answer as a refusal (nothing stored), or create the trade with the scenario's name and
 * schedule its timeline. A refusal (an unknown scenario name, a duplicate order) stores
 * nothing. The caller commits the store and answers 201, unless `answer` says the answer is
 * lost (close the connection) or late (wait `answer.delay` after the commit).
 */
export async function createWithScenario(
  deps: ScenarioCreateDeps,
  request: DepositRequest,
  header: string | undefined,
): Promise<{ trade: TradeRecord; scenario: Scenario | undefined; answer: AnswerAfterSave | undefined } | Refusal> {
  const scenario = deps.scenarios.select(request, header);
  if (scenario instanceof Refusal) return scenario;
  const mismatch = scenario && scenarioProfileRefusal(scenario, transitionTable(deps.profile?.states?.intermediate ?? []), deps.profile?.name, header?.trim() ? SCENARIO_HEADER : 'scenario');
  if (mismatch) return mismatch;
  if (scenario && deps.log) deps.log(scenarioLogLine(deps.scenarios, scenario, request, Boolean(header?.trim())));
  if (scenario?.delay) await deps.scenarios.wait(scenario.delay);
  const forced = scenario && forcedRefusal(scenario);
  // first_only: an order's first create gets the forced answer; its retry goes through.
  if (forced && (!scenario.respond?.first_only || deps.scenarios.firstTry(scenario, request))) return forced;
  const trade = createTrade(deps, request, scenario?.name);
  if (trade instanceof Refusal) return trade.code === 'duplicate_order' && deps.profile?.requests.duplicate_order_names_trade === false ? orderUsed(request.order) : trade;
  if (scenario) scheduleTimeline(deps.scheduler, trade, scenario);
  return { trade, scenario, answer: scenario?.answer };
}
