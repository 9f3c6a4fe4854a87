import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Clock } from '../clock/clock.js';
import { Scheduler } from '../clock/scheduler.js';
import { SandboxError } from '../http/errors.js';
import { Lifecycle } from '../lifecycle/lifecycle.js';
import { registerTimeline, TIMELINE_JOB } from '../lifecycle/timeline.js';
import { transitionTable } from '../lifecycle/transitions.js';
import { loadFixtures, MerchantDirectory } from '../merchants/fixtures.js';
import { MemoryAdapter } from '../store/adapter.js';
import { Store } from '../store/store.js';
import { createRandom } from '../trades/random.js';
import type { DepositRequest } from '../trades/requests.js';
import { accepted } from '../../test/support.js';
import { createWithScenario as tryCreateWithScenario, type ScenarioCreateDeps } from './create-with-scenario.js';

/** The created trade; a refusal is thrown as the envelope the HTTP layer answers with. */
const createWithScenario = async (...args: Parameters<typeof tryCreateWithScenario>) => accepted(await tryCreateWithScenario(...args));
import type { LoadedScenario } from './load-scenarios.js';
import { scenarioSchema, scenarioSchemas, type ScenarioInput } from './scenario.js';
import { ScenarioEngine } from './scenario-engine.js';

const DEMO = '6f1c2a9e-3b7d-4c52-9a1e-2d4b8f0c7e51';
let n = 0;
const request = (overrides: Partial<DepositRequest> = {}): DepositRequest =>
  ({ merchant: DEMO, order: `order-${++n}`, amount_cents: 31250, amount_currency: 'RUB', type: 'any_bank', ...overrides }) as DepositRequest;

function engineOf(...inputs: ScenarioInput[]): ScenarioEngine {
  return new ScenarioEngine(inputs.map((input, index): LoadedScenario => ({ scenario: scenarioSchema.parse(input), file: 'test.yaml', line: index + 1, bundled: false })));
}

let store: Store;
let deps: ScenarioCreateDeps;
let lifecycle: Lifecycle;

async function setUp(scenarios: ScenarioEngine): Promise<void> {
  store = await Store.open(new MemoryAdapter());
  const clock = new Clock('manual', store, () => Date.parse('2030-01-01T00:00:00.000Z'));
  const scheduler = new Scheduler(store, clock);
  lifecycle = new Lifecycle(store, clock);
  registerTimeline(scheduler, lifecycle);
  await scheduler.start();
  deps = { store, clock, scheduler, lifecycle, merchants: new MerchantDirectory(loadFixtures()), random: createRandom(7), scenarios } as ScenarioCreateDeps;
}

const ENGINE = engineOf(
  { name: 'pay', description: 'd', match: { order: '^two-' }, timeline: [{ after: '30s', state: 'confirmed', note: 'paid' }] },
  { name: 'expire', description: 'd', match: { order: '^expire-' }, timeline: [{ after: '1m', state: 'expired' }] },
  { name: 'refuse', description: 'd', match: { order: '^refuse-' }, respond: { status: 422, message: 'No.', field: 'order' } },
  { name: 'deny', description: 'd', match: { order: '^deny-' }, respond: { status: 401, code: 'access_denied', message: 'Denied.' } },
  { name: 'late', description: 'd', match: { order: '^late-' }, delay: '3s', timeline: [{ after: 0, state: 'canceled' }] },
  { name: 'late-refuse', description: 'd', match: { order: '^laterefuse-' }, delay: 250, respond: { status: 422, message: 'Slowly no.' } },
  { name: 'quiet', description: 'd', callbacks: { duplicate: true } },
);

beforeEach(() => setUp(ENGINE));
afterEach(() => deps.scheduler.stop());

describe('createWithScenario', () => {
  it('no scenario: creates the trade without a scenario name and schedules nothing', async () => {
    const { trade, scenario } = await createWithScenario(deps, request(), undefined);
    expect(scenario).toBeUndefined();
    expect(trade.scenario).toBeUndefined();
    expect(store.trades.get(trade.id)?.state).toBe('created');
    expect(deps.scheduler.pending()).toEqual([]);
  });

  it('timeline: one transition job per step, due at creation + after, on the trade', async () => {
    const paid = await createWithScenario(deps, request({ order: 'two-1' }), undefined);
    const expiring = await createWithScenario(deps, request({ order: 'expire-1', type: 'ecom' }), undefined);
    expect(paid.trade.scenario).toBe('pay');
    expect(expiring.trade.scenario).toBe('expire');
    const created = Date.parse(paid.trade.created_at);
    expect(deps.scheduler.pending().map(({ kind, due, data, trade: id }) => ({ kind, due, data, trade: id }))).toEqual([
      {
        kind: TIMELINE_JOB,
        due: created + 30_000,
        data: { state: 'confirmed', note: 'scenario pay: paid', note_code: 'history.scenario.note', note_params: { scenario: 'pay', note: 'paid' } },
        trade: paid.trade.id,
      },
      { kind: TIMELINE_JOB, due: created + 60_000, data: { state: 'expired', note: 'scenario expire', note_code: 'history.scenario', note_params: { scenario: 'expire' } }, trade: expiring.trade.id },
    ]);
  });

  it('timeline steps run when the manual clock passes them', async () => {
    const { trade } = await createWithScenario(deps, request({ order: 'two-2' }), undefined);
    await deps.scheduler.advance(29_999);
    expect(store.trades.get(trade.id)?.state).toBe('created');
    await deps.scheduler.advance(1);
    expect(store.trades.get(trade.id)?.state).toBe('confirmed');
    expect(store.trades.get(trade.id)?.history.at(-1)).toEqual({
      from: 'created',
      to: 'confirmed',
      cause: 'scenario',
      note: 'scenario pay: paid',
      note_code: 'history.scenario.note',
      note_params: { scenario: 'pay', note: 'paid' },
      at: '2030-01-01T00:00:30.000Z',
    });
    expect(deps.scheduler.pending()).toEqual([]);
  });

  it('a step the trade can no longer take (paid meanwhile) is skipped', async () => {
    const { trade } = await createWithScenario(deps, request({ order: 'expire-2', type: 'ecom' }), undefined);
    lifecycle.transition(trade.id, 'confirmed', 'admin');
    await deps.scheduler.advance(60_000);
    expect(store.trades.get(trade.id)?.state).toBe('confirmed');
    expect(store.trades.get(trade.id)?.history.map((h) => h.cause)).toEqual(['create', 'admin']);
    expect(deps.scheduler.pending()).toEqual([]);
  });

  it('timeline counts from creation, also for a trade created after the clock moved', async () => {
    await deps.scheduler.advance(3_600_000);
    const { trade } = await createWithScenario(deps, request({ order: 'two-3' }), undefined);
    expect(deps.scheduler.pending()[0]?.due).toBe(Date.parse('2030-01-01T01:00:30.000Z'));
    expect(trade.created_at).toBe('2030-01-01T01:00:00.000Z');
  });

  it('respond 422: throws the envelope (default code, details for the field) and stores nothing', async () => {
    const error = await createWithScenario(deps, request({ order: 'refuse-1' }), undefined).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SandboxError);
    expect((error as SandboxError).toJSON()).toEqual({ error: { status: 422, code: 'scenario_rejected', message: 'No.', details: [{ field: 'order', message: 'No.' }] } });
    expect((error as SandboxError).headers).toEqual({ 'X-Sandbox-Scenario': 'refuse' });
    expect(store.trades.size).toBe(0);
    expect(deps.scheduler.pending()).toEqual([]);
  });

  it('respond 401: the given code, no details', async () => {
    const error = (await createWithScenario(deps, request({ order: 'deny-1' }), undefined).catch((e: unknown) => e)) as SandboxError;
    expect(error.toJSON()).toEqual({ error: { status: 401, code: 'access_denied', message: 'Denied.', details: [] } });
    expect(store.trades.size).toBe(0);
  });

  it('delay: waits before the trade exists, then creates it', async () => {
    let release!: () => void;
    const wait = vi.spyOn(deps.scenarios, 'wait').mockImplementation(() => new Promise<void>((resolve) => (release = resolve)));
    const pending = createWithScenario(deps, request({ order: 'late-1' }), undefined);
    await Promise.resolve();
    expect(wait).toHaveBeenCalledWith(3000);
    expect(store.trades.size).toBe(0);
    release();
    const { trade } = await pending;
    expect(store.trades.get(trade.id)?.scenario).toBe('late');
    wait.mockRestore();
  });

  it('delay then respond: waits, then throws', async () => {
    const wait = vi.spyOn(deps.scenarios, 'wait').mockResolvedValue();
    await expect(createWithScenario(deps, request({ order: 'laterefuse-1' }), undefined)).rejects.toMatchObject({ status: 422, message: 'Slowly no.' });
    expect(wait).toHaveBeenCalledWith(250);
    expect(store.trades.size).toBe(0);
    wait.mockRestore();
  });

  it('a step due at once (after: 0) runs without advancing the manual clock', async () => {
    vi.spyOn(deps.scenarios, 'wait').mockResolvedValue();
    const { trade } = await createWithScenario(deps, request({ order: 'late-2' }), undefined);
    await deps.scheduler.runDue();
    expect(store.trades.get(trade.id)?.state).toBe('canceled');
    vi.restoreAllMocks();
  });

  it('the header picks a header-only scenario, and beats a match', async () => {
    const { trade } = await createWithScenario(deps, request({ order: 'two-4' }), 'quiet');
    expect(trade.scenario).toBe('quiet');
    expect(deps.scheduler.pending()).toEqual([]);
  });

  it('an unknown header is a 422 and stores nothing', async () => {
    await expect(createWithScenario(deps, request(), 'nope')).rejects.toMatchObject({ status: 422, code: 'unknown_scenario' });
    expect(store.trades.size).toBe(0);
  });

  it('a duplicate order is still refused with a scenario', async () => {
    await createWithScenario(deps, request({ order: 'two-5' }), undefined);
    await expect(createWithScenario(deps, request({ order: 'two-5' }), undefined)).rejects.toMatchObject({ status: 422, code: 'duplicate_order' });
    expect(deps.scheduler.pending()).toHaveLength(1);
  });
});

describe('createWithScenario under a provider profile with intermediate states', () => {
  const profile = (intermediate: string[]) => ({ name: 'mine', requests: { duplicate_order_names_trade: true }, states: { intermediate } });
  const table = transitionTable(['processing']);
  const processing = new ScenarioEngine([
    {
      scenario: scenarioSchemas(table).scenarioSchema.parse({
        name: 'slow-bank',
        description: 'd',
        match: { order: '^slow-' },
        timeline: [
          { after: '5s', state: 'processing' },
          { after: '1m', state: 'confirmed' },
        ],
      }),
      file: 'flow.yaml',
      line: 1,
      bundled: false,
    },
  ]);

  it('schedules a step to the intermediate state of the profile in force', async () => {
    await setUp(processing);
    const { trade } = await createWithScenario({ ...deps, profile: profile(['processing']) }, request({ order: 'slow-1' }), undefined);
    expect(deps.scheduler.pending().map((job) => job.data['state'])).toEqual(['processing', 'confirmed']);
    expect(trade.state).toBe('created');
  });

  it('refuses a create whose scenario names a state the profile in force lacks, and stores nothing', async () => {
    await setUp(processing);
    await expect(createWithScenario({ ...deps, profile: profile([]) }, request({ order: 'slow-2' }), undefined)).rejects.toMatchObject({
      status: 422,
      code: 'scenario_state_unknown',
      message:
        'Scenario "slow-bank" moves the trade to "processing" (timeline[0]), a state the provider profile "mine" in force does not have (its states: created, ecom, confirmed, canceled, expired). Add it to the profile\'s states.intermediate (docs/provider-profile.md), or change the scenario\'s timeline. Nothing was created.',
      details: [{ field: 'scenario', message: 'names the state "processing", which the profile does not have' }],
    });
    await expect(createWithScenario({ ...deps, profile: profile(['review']) }, request({ order: 'slow-3' }), 'slow-bank')).rejects.toMatchObject({
      code: 'scenario_state_unknown',
      details: [{ field: 'X-Sandbox-Scenario' }],
    });
    expect(store.trades.size).toBe(0);
  });

  it('a scenario of the sandbox states runs under any profile: its confirmation passes the intermediate states', async () => {
    const { trade } = await createWithScenario({ ...deps, profile: profile(['processing']) }, request({ order: 'two-9' }), undefined);
    expect(deps.scheduler.pending().map((job) => job.data['state'])).toEqual(['confirmed']);
    expect(trade.scenario).toBe('pay');
  });
});
