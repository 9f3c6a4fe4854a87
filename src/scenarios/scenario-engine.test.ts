import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { it, test } from '../../test/temp-folder.js';
import { accepted } from '../../test/support.js';
import { SandboxError } from '../http/errors.js';
import type { MatchRequest } from './match-scenario.js';
import { ScenarioEngine } from './scenario-engine.js';

/** The file's temporary folder: each helper call makes a folder of its own in it. */
let root: string;
test.beforeAll(({ fileFolder }) => {
  root = fileFolder;
});
let folders = 0;
function folder(files: Record<string, string>): string {
  const dir = join(root, `f${++folders}`);
  mkdirSync(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

const DEMO = '6f1c2a9e-3b7d-4c52-9a1e-2d4b8f0c7e51';
const request = (overrides: Partial<MatchRequest> = {}): MatchRequest => ({ type: 'any_bank', merchant: DEMO, amount_cents: 31250, order: 'order-1001', ...overrides });

const scenario = (name: string, match?: string) => `  - name: ${name}\n    description: ${name}\n${match ? `    match: ${match}\n` : ''}`;

describe('ScenarioEngine', () => {
  let user: string;
  let engine: ScenarioEngine;
  test.beforeAll(() => {
    user = folder({
      // Files in name order: 10-* before 20-*.
      '20-late.yaml': `scenarios:\n${scenario('late-confirm', '{order: "^sbx-confirm-"}')}`,
      '10-early.yaml': `scenarios:\n${scenario('big', '{amount: {min: 1000000}}')}${scenario('big-ecom', '{amount: {min: 1000000}, type: ecom}')}${scenario('header-only')}`,
    });
    engine = ScenarioEngine.load(user);
  });

  it('leaves the bundled folder out with bundled: false', () => {
    expect(ScenarioEngine.load(user, { bundled: false }).names()).toEqual(['big', 'big-ecom', 'header-only', 'late-confirm']);
    expect(ScenarioEngine.load(undefined, { bundled: false }).names()).toEqual([]);
  });

  it('puts the user folder before the bundled one: a user scenario shadows a bundled match', () => {
    expect(engine.names().slice(0, 4)).toEqual(['big', 'big-ecom', 'header-only', 'late-confirm']);
    expect(engine.names()).toContain('confirm');
    expect(engine.match(request({ order: 'sbx-confirm-1' }))?.name).toBe('late-confirm');
    expect(ScenarioEngine.load().match(request({ order: 'sbx-confirm-1' }))?.name).toBe('confirm');
  });

  it('first match wins, in file order then scenario order', () => {
    expect(engine.match(request({ type: 'ecom', amount_cents: 2_000_000 }))?.name).toBe('big');
    expect(engine.match(request({ order: 'sbx-confirm-1', amount_cents: 2_000_000 }))?.name).toBe('big');
  });

  it('nothing matches: undefined (the trade waits for the page or an admin)', () => {
    expect(engine.match(request())).toBeUndefined();
    expect(accepted(engine.select(request(), undefined))).toBeUndefined();
  });

  it('the header wins over matching and can pick a header-only scenario', () => {
    expect(accepted(engine.select(request({ order: 'sbx-confirm-1' }), 'cancel'))?.name).toBe('cancel');
    expect(accepted(engine.select(request(), 'header-only'))?.name).toBe('header-only');
    expect(accepted(engine.select(request(), ' HEADER-ONLY '))?.name).toBe('header-only');
  });

  it('a blank header counts as absent', () => {
    expect(accepted(engine.select(request({ order: 'sbx-confirm-1' }), '  '))?.name).toBe('late-confirm');
  });

  it('an unknown header name is a 422 that lists the known names', () => {
    let error: unknown;
    try {
      accepted(engine.select(request(), 'confirmed'));
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(SandboxError);
    const e = error as SandboxError;
    expect(e.status).toBe(422);
    expect(e.code).toBe('unknown_scenario');
    expect(e.message).toContain('X-Sandbox-Scenario names "confirmed", but no scenario has that name. Known scenarios: big, big-ecom, header-only, late-confirm, confirm, cancel');
    expect(e.details).toEqual([{ field: 'X-Sandbox-Scenario', message: 'is not the name of a loaded scenario' }]);
  });

  it('get() finds a scenario by name, any case; undefined for unknown or absent names', () => {
    expect(engine.get('Flaky-Callbacks')?.callbacks).toEqual({ fail_first: 2 });
    expect(engine.get('nope')).toBeUndefined();
    expect(engine.get(undefined)).toBeUndefined();
  });

  it('list() summarizes each scenario in match order', () => {
    const list = engine.list();
    expect(list.map((s) => s.name)).toEqual(engine.names());
    expect(list[0]).toMatchObject({ name: 'big', bundled: false, line: 2, match: 'amount_cents in [1000000, ∞]', magic: 'amount_cents of at least 1000000' });
    expect(list[0]?.source).toMatch(/10-early\.yaml$/);
    expect(list.find((s) => s.name === 'header-only')).toMatchObject({ match: 'X-Sandbox-Scenario header only', magic: 'X-Sandbox-Scenario: header-only only' });
    expect(list.find((s) => s.name === 'confirm')).toEqual({
      name: 'confirm',
      description: 'The payer pays 5 seconds after the trade is created.',
      description_ru: 'Плательщик платит через 5 секунд после создания сделки.',
      source: 'scenarios/10-outcomes.yaml',
      line: 9,
      bundled: true,
      match: 'order matches /^sbx-confirm-/',
      magic: 'order starting with "sbx-confirm-"',
      magic_parts: [{ code: 'trigger.order.prefix', params: { prefix: '"sbx-confirm-"' } }],
      does: 'confirmed after 5s',
      respond: null,
      delay_ms: null,
      answer: null,
      timeline: [{ after_ms: 5000, state: 'confirmed' }],
      callbacks: null,
    });
    expect(list.find((s) => s.name === 'reject')).toMatchObject({ respond: { status: 422, code: 'trade_rejected' }, does: 'create answers 422 trade_rejected; no trade is stored' });
    expect(list.find((s) => s.name === 'slow')).toMatchObject({ delay_ms: 10_000 });
  });

  it("matches with the patterns its entries' file compiled when it was checked: every workspace's engine shares the server's", () => {
    const [entry] = ScenarioEngine.load(folder({ 'vip.yaml': 'scenarios:\n  - name: vip\n    description: d\n    match: { order: "^vip-" }\n    timeline: [{ after: 5s, state: confirmed }]\n' }), {
      bundled: false,
    }).entries();
    if (!entry) throw new Error('vip.yaml loaded no scenario');
    expect(entry.patterns?.get('^vip-')?.test('vip-1')).toBe(true);
    const request: MatchRequest = { type: 'any_bank', merchant: 'm', amount_cents: 100, order: 'vip-1' };
    expect(new ScenarioEngine([entry]).match(request)?.name).toBe('vip');
    // The compiled form given with the entry is the one used: no engine compiles the pattern again.
    const given = { ...entry, patterns: new Map([['^vip-', { test: (text: string) => text === 'chosen' }]]) };
    const engines = [new ScenarioEngine([given]), new ScenarioEngine([given])];
    for (const engine of engines) {
      expect(engine.match(request)).toBeUndefined();
      expect(engine.match({ ...request, order: 'chosen' })?.name).toBe('vip');
    }
  });

  it('a broken user folder stops loading', () => {
    const broken = folder({ 'bad.yaml': 'scenarios:\n  - name: x\n    description: d\n    delay: forever\n' });
    expect(() => ScenarioEngine.load(broken)).toThrow(/bad\.yaml:4:12: scenarios\[0\]\.delay: must be a duration/);
  });
});
