import { CALLBACK_JOB } from '../callbacks/callback-dispatcher.js';
import { TIMELINE_JOB } from '../lifecycle/timeline.js';
import type { Merchant } from '../merchants/fixtures.js';
import { parseProfile } from '../profile/load-profile.js';
import { ProfileError } from '../profile/profile-error.js';
import type { Profile } from '../profile/profile-schema.js';
import { profileUploadName, type ProfileSource } from '../profile/workspace-profile.js';
import type { ErrorDetail } from '../refusals/refusal.js';
import { REPORT_ROW } from '../report/keep-report.js';
import type { Sandbox } from '../sandbox.js';
import { ScenarioEngine } from '../scenarios/scenario-engine.js';
import { parseScenarioUpload, uploadName } from '../scenarios/uploaded-scenarios.js';
import type { FileProblem } from '../config/yaml-issues.js';
import type { CallbackEvent } from '../store/callback-records.js';
import type { Job } from '../store/jobs.js';
import type { MetaRow } from '../store/snapshot.js';
import type { TradeRecord } from '../trades/trade.js';
import { holdCallbacks } from './held-callbacks.js';
import { knownSecrets } from './record-callbacks.js';
import { META, type StateDocument } from './state-document.js';

/** What becomes of the callbacks a document holds pending: held until resumed (the default), or sent as they fall due. */
export type PendingCallbacks = 'paused' | 'kept';

/** The sandbox a state document goes into. */
export type StateTarget = Pick<Sandbox, 'store' | 'clock' | 'scheduler' | 'callbacks' | 'merchants' | 'report' | 'session' | 'workspace' | 'shared' | 'scenarios' | 'profile' | 'profileSource'>;

/** A document checked against its target and turned into what it will write: nothing is changed yet. */
export interface ImportPlan {
  readonly trades: TradeRecord[];
  readonly callbacks: CallbackEvent[];
  readonly jobs: Job[];
  readonly meta: MetaRow[];
  readonly merchants: Merchant[];
  readonly scenarios: ScenarioEngine;
  readonly profile: { profile: Profile; source: ProfileSource };
  /** Callback events held until POST /_sandbox/resume-callbacks. */
  readonly held: number;
}

export type PlanResult = { ok: true; plan: ImportPlan } | { ok: false; problems: ErrorDetail[] };

/** What an import changed, as PUT /_sandbox/state and POST /_sandbox/fork answer it. */
export interface ImportSummary {
  trades: number;
  callbacks: number;
  jobs: number;
  merchants: number;
  held_callbacks: number;
  clock: string;
}

/**
 * Checks a state document (already of the schema, stateDocumentSchema) against the sandbox it
 * goes into, and turns it into the rows it writes. Refused, with every problem, when rows repeat
 * an id or an order, refer to a trade, event or merchant the document does not hold, when one of
 * its merchants is one of this server's fixture merchants, or when its scenarios or profile do not
 * load here. `trusted`: the document is a store's own (a fork), so only its scenarios and profile
 * are read again, under the target's name.
 */
export function planImport(target: StateTarget, document: StateDocument, options: { callbacks: PendingCallbacks; trusted?: boolean }): PlanResult {
  const problems: ErrorDetail[] = [];
  const problem = (field: string, message: string) => void problems.push({ field, message });
  if (!options.trusted) checkRows(target, document, problem);

  const scenariosFile = uploadName(target.workspace);
  let scenarios = new ScenarioEngine(target.shared.scenarios);
  if (document.scenarios !== null) {
    const upload = parseScenarioUpload(document.scenarios, scenariosFile, target.shared.scenarios);
    if (upload.ok) scenarios = new ScenarioEngine([...upload.entries, ...target.shared.scenarios]);
    else for (const p of upload.error.problems) problem(`scenarios${where(p)}`, p.message);
  }

  const profileFile = profileUploadName(target.workspace);
  let profile: ImportPlan['profile'] = { profile: target.shared.profile, source: 'server' };
  if (document.profile.source === 'workspace') {
    if (document.profile.text === undefined) problem('profile.text', 'must be the profile file text when profile.source is "workspace"');
    else {
      try {
        profile = { profile: parseProfile(document.profile.text, profileFile), source: 'workspace' };
      } catch (error) {
        if (!(error instanceof ProfileError)) throw error;
        for (const p of error.problems) problem(`profile.text${where(p)}`, p.message);
      }
    }
  }
  if (problems.length > 0) return { ok: false, problems };

  const now = Date.parse(document.clock.now);
  const clock: MetaRow = target.clock.mode === 'manual' ? { id: META.clock, frozen: now } : { id: META.clock, offset: now - Date.now() };
  const meta: MetaRow[] = [clock, ...document.merchants.map((merchant) => ({ id: `${META.merchant}${merchant.id.toLowerCase()}`, merchant }))];
  if (document.scenarios !== null) meta.push({ id: META.scenarios, file: scenariosFile, yaml: document.scenarios });
  if (profile.source === 'workspace') meta.push({ id: META.profile, file: profileFile, text: document.profile.text });
  const jobs = options.callbacks === 'paused' ? holdCallbacks(document.callbacks, document.jobs) : { jobs: document.jobs, held: 0 };
  return {
    ok: true,
    plan: { trades: document.trades, callbacks: document.callbacks, jobs: jobs.jobs, meta, merchants: document.merchants, scenarios, profile, held: jobs.held },
  };
}

/**
 * Replaces everything the target holds with the plan's rows, in one group commit, then puts its
 * merchants, scenarios and profile in force and sets its steps and callbacks going (a callback
 * left pending without its step, such as one on the wire at export, is scheduled again unless
 * held). All or nothing: when the write fails (a WriteFailedError, rejected), the store has put
 * back what it held, and so the sandbox is as it was.
 */
export async function applyImport(target: StateTarget, plan: ImportPlan): Promise<ImportSummary> {
  const { store } = target;
  // The integration report's counts are the workspace's own, not part of a state document: they stay written.
  const report = store.meta.get(REPORT_ROW);
  store.clear();
  if (report !== undefined) store.meta.put(report);
  for (const row of plan.meta) store.meta.put(row);
  for (const trade of plan.trades) store.trades.put(trade);
  for (const event of plan.callbacks) store.callbacks.put(event);
  for (const job of plan.jobs) store.jobs.put(job);
  target.callbacks.reset();
  target.scheduler.reload();
  try {
    await store.commit();
  } catch (error) {
    // The store put its rows back (and the callbacks index followed): the steps follow them too.
    target.scheduler.reload();
    throw error;
  }
  // The session masks the credentials of the merchants it saw, also once they are gone.
  target.session.remember(knownSecrets(target.merchants));
  const kept = new Set(plan.merchants.map((merchant) => merchant.id.toLowerCase()));
  const fixtures = new Set(target.shared.fixtures.merchants.map((merchant) => merchant.id.toLowerCase()));
  for (const merchant of target.merchants.list()) {
    const id = merchant.id.toLowerCase();
    if (!fixtures.has(id) && !kept.has(id)) target.merchants.remove(id);
  }
  for (const merchant of plan.merchants) {
    target.merchants.remove(merchant.id);
    target.merchants.add(merchant);
  }
  target.scenarios = plan.scenarios;
  target.profile = plan.profile.profile;
  target.profileSource = plan.profile.source;
  target.report.forgetReads();
  target.callbacks.resume();
  return {
    trades: plan.trades.length,
    callbacks: plan.callbacks.length,
    jobs: plan.jobs.length,
    merchants: plan.merchants.length,
    held_callbacks: plan.held,
    clock: target.clock.nowIso(),
  };
}

/** ` line 3 column 5 (scenarios[0].match)`: where a problem of an uploaded text is. */
function where(p: FileProblem): string {
  const place = p.line !== undefined ? ` line ${p.line}${p.column !== undefined ? ` column ${p.column}` : ''}` : '';
  return `${place}${p.path ? ` (${p.path})` : ''}`;
}

/** The checks a document from elsewhere needs beyond its schema: ids, orders and references. */
function checkRows(target: StateTarget, document: StateDocument, problem: (field: string, message: string) => void): void {
  const fixtures = new Map(target.shared.fixtures.merchants.map((merchant) => [merchant.id.toLowerCase(), merchant]));
  const merchants = new Set(fixtures.keys());
  document.merchants.forEach((merchant, i) => {
    const id = merchant.id.toLowerCase();
    const fixture = fixtures.get(id);
    if (fixture) problem(`merchants[${i}].id`, `${merchant.id} is a merchant of this server's fixtures (${fixture.name}), which every workspace has: leave it out of merchants`);
    else if (merchants.has(id)) problem(`merchants[${i}].id`, `${merchant.id} is listed twice`);
    merchants.add(id);
  });

  const trades = new Set<string>();
  const orders = new Set<string>();
  document.trades.forEach((trade, i) => {
    if (trades.has(trade.id)) problem(`trades[${i}].id`, `${trade.id} is the id of an earlier trade`);
    trades.add(trade.id);
    const order = `${trade.merchant.toLowerCase()}\n${trade.order}`;
    if (orders.has(order)) problem(`trades[${i}].order`, `${JSON.stringify(trade.order)} is the order of an earlier trade of merchant ${trade.merchant}; an order is unique per merchant`);
    orders.add(order);
    if (!merchants.has(trade.merchant.toLowerCase())) problem(`trades[${i}].merchant`, `${trade.merchant} is neither one of this server's fixture merchants nor in merchants: add it to merchants`);
  });

  const events = new Set<string>();
  document.callbacks.forEach((event, i) => {
    if (events.has(event.id)) problem(`callbacks[${i}].id`, `${event.id} is the id of an earlier callback event`);
    events.add(event.id);
    if (!trades.has(event.trade)) problem(`callbacks[${i}].trade`, `${event.trade} is not the id of a trade in trades`);
  });

  const jobs = new Set<string>();
  document.jobs.forEach((job, i) => {
    if (jobs.has(job.id)) problem(`jobs[${i}].id`, `${job.id} is the id of an earlier job`);
    jobs.add(job.id);
    if (job.kind !== CALLBACK_JOB && job.kind !== TIMELINE_JOB) problem(`jobs[${i}].kind`, `must be "${TIMELINE_JOB}" (a timeline step) or "${CALLBACK_JOB}" (a callback attempt)`);
    if (job.trade !== undefined && !trades.has(job.trade)) problem(`jobs[${i}].trade`, `${job.trade} is not the id of a trade in trades`);
    if (job.kind === CALLBACK_JOB && !events.has(String(job.data['event']))) problem(`jobs[${i}].data.event`, `${JSON.stringify(job.data['event'])} is not the id of a callback event in callbacks`);
  });
}
