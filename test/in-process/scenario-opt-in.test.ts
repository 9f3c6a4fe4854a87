import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect } from 'vitest';
import { it } from '../temp-folder.js';
import { capturingLogger, DEMO, errorOf, makeSandbox, nextOrder, p2pBody, type TestSandbox } from '../support.js';

const CREATE = '/api/v1/trades/deposit/create';

let t: TestSandbox | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('the bundled scenarios are opt-in', () => {
  it.each(['dup-fixed-1', 'confirm-1001', 'cancel-2024-17', 'slow-lane-3', 'reject-7', 'SBX-CONFIRM-1'])('an ordinary order %s is not scripted', async (order) => {
    t = await makeSandbox({ clock: 'manual' });
    const res = await t.post(CREATE, p2pBody({ order: `${order}-${process.pid}` }));
    expect(res.status).toBe(201);
    expect(res.headers.get('X-Sandbox-Scenario')).toBeNull();
    const { id } = (await res.json()) as { id: string };
    expect(t.sandbox.store.trades.get(id)?.scenario).toBeUndefined();
    expect(t.sandbox.scheduler.pending()).toEqual([]);
  });

  it('an sbx- order is scripted and the create logs one line naming the scenario, its file and why', async () => {
    const logger = capturingLogger();
    t = await makeSandbox({ clock: 'manual' }, { services: { logger } });
    const lines = logger.infos;
    const order = nextOrder('sbx-confirm-ci');
    const res = await t.post(CREATE, p2pBody({ order }));
    expect(res.status).toBe(201);
    expect(res.headers.get('X-Sandbox-Scenario')).toBe('confirm');
    expect(lines).toEqual([`scenario "confirm" took any_bank order "${order}" (merchant ${DEMO.id}): confirmed after 5s [scenarios/10-outcomes.yaml:9, order starting with "sbx-confirm-"]`]);

    // A forced error is logged too (nothing is stored); an ordinary order logs nothing.
    const rejected = await t.post(CREATE, p2pBody({ order: nextOrder('sbx-reject') }));
    expect(rejected.status).toBe(422);
    expect(lines[1]).toMatch(/^scenario "reject" took any_bank order "sbx-reject-[^"]+" .*create answers 422 trade_rejected/);
    await t.post(CREATE, p2pBody({ order: nextOrder('plain') }));
    expect(lines).toHaveLength(2);

    const picked = await t.post(CREATE, p2pBody({ order: nextOrder('plain') }), { 'X-Sandbox-Scenario': 'cancel' });
    expect(picked.status).toBe(201);
    expect(lines[2]).toMatch(/^scenario "cancel" took .*: canceled after 5s \[scenarios\/10-outcomes\.yaml:\d+, picked by the X-Sandbox-Scenario header\]$/);
  });

  it('bundledScenarios: false (--no-bundled-scenarios) turns every bundled scenario off, header names included', async () => {
    t = await makeSandbox({ clock: 'manual', bundledScenarios: false });
    const res = await t.post(CREATE, p2pBody({ order: nextOrder('sbx-confirm') }));
    expect(res.status).toBe(201);
    expect(res.headers.get('X-Sandbox-Scenario')).toBeNull();
    expect(t.sandbox.scenarios.names()).toEqual([]);

    const header = await t.post(CREATE, p2pBody({ order: nextOrder('plain') }), { 'X-Sandbox-Scenario': 'confirm' });
    expect(header.status).toBe(422);
    expect((await errorOf(header)).message).toContain('Known scenarios: (none)');
  });

  it('with --no-bundled-scenarios, a --scenarios folder still works on its own', async ({ folder }) => {
    writeFileSync(join(folder, 'a.yaml'), 'scenarios:\n  - name: mine\n    description: Mine.\n    match: {order: "^confirm-"}\n    timeline: [{after: 1s, state: confirmed}]\n');
    t = await makeSandbox({ clock: 'manual', bundledScenarios: false, scenarios: folder });
    expect(t.sandbox.scenarios.names()).toEqual(['mine']);
    const res = await t.post(CREATE, p2pBody({ order: nextOrder('confirm') }));
    expect(res.headers.get('X-Sandbox-Scenario')).toBe('mine');
  });
});
