import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BUNDLED_SCENARIOS, loadScenarios } from '../../src/scenarios/load-scenarios.js';
import { MAGIC_START, renderMagicValues, replaceMagicValues } from '../../src/scenarios/magic-values.js';
import { ScenarioEngine } from '../../src/scenarios/scenario-engine.js';
import { renderSchemaJson } from '../../src/scenarios/schema-json.js';
import type { TradeType } from '../../src/trades/trade.js';
import { DEMO, nextOrder, SECOND } from '../support.js';

const repo = (path: string) => fileURLToPath(new URL(`../../${path}`, import.meta.url));
const STALE = 'is stale: run `npm run docs` and commit the result';

describe('generated files are up to date', () => {
  it('scenarios/schema.json matches the zod schema', () => {
    const checkedIn = readFileSync(repo('scenarios/schema.json'), 'utf8');
    expect(checkedIn === renderSchemaJson(), `scenarios/schema.json ${STALE}`).toBe(true);
  });

  it('every magic-values table (README.md and docs/*.md holding the markers) matches the bundled scenarios', () => {
    const files = markdownWithMarkers();
    expect(files, 'docs/scenarios.md must hold the magic-values markers').toContain('docs/scenarios.md');
    const table = renderMagicValues(loadScenarios([{ path: BUNDLED_SCENARIOS, bundled: true }]));
    for (const name of files) {
      const text = readFileSync(repo(name), 'utf8');
      // Throws when the markers are out of order or repeated.
      const fresh = replaceMagicValues(text, table, name);
      expect(fresh === text, `The magic-values table in ${name} ${STALE}`).toBe(true);
    }
  });
});

/** README.md and the docs/ pages that hold the magic-values start marker (as scripts/docs.js finds them). */
function markdownWithMarkers(): string[] {
  const candidates = [
    'README.md',
    ...readdirSync(repo('docs'))
      .filter((name) => name.endsWith('.md'))
      .map((name) => `docs/${name}`),
  ];
  return candidates.filter((name) => existsSync(repo(name)) && readFileSync(repo(name), 'utf8').includes(MAGIC_START));
}

describe('bundled scenario files', () => {
  const files = readdirSync(BUNDLED_SCENARIOS).filter((name) => name.endsWith('.yaml'));

  it('each starts with the editor schema line', () => {
    expect(files.length).toBeGreaterThan(0);
    for (const name of files) {
      expect(readFileSync(`${BUNDLED_SCENARIOS}${name}`, 'utf8').split('\n')[0], name).toBe('# yaml-language-server: $schema=./schema.json');
    }
  });

  it('cover every required behaviour', () => {
    const list = ScenarioEngine.load().list();
    const find = (predicate: (s: (typeof list)[number]) => boolean) => list.filter(predicate).map((s) => s.name);
    expect(find((s) => s.timeline.some((step) => step.state === 'confirmed') && !s.callbacks)).not.toEqual([]);
    expect(find((s) => s.timeline.some((step) => step.state === 'canceled'))).not.toEqual([]);
    expect(find((s) => s.timeline.some((step) => step.state === 'expired'))).not.toEqual([]);
    expect(find((s) => s.respond?.status === 422)).not.toEqual([]);
    expect(find((s) => s.respond?.status === 401)).not.toEqual([]);
    expect(find((s) => s.delay_ms !== null && !s.respond)).not.toEqual([]);
    expect(find((s) => (s.callbacks?.fail_first ?? 0) > 0)).not.toEqual([]);
    expect(find((s) => s.callbacks?.duplicate === true)).not.toEqual([]);
    expect(find((s) => s.callbacks?.bad_signature === true)).not.toEqual([]);
    expect(find((s) => s.callbacks?.overlap === true)).toEqual(['overlapping-callbacks']);
    // The faults a merchant must survive (docs/surviving-failures.md); the integration report keys on these names.
    expect(find((s) => s.answer?.lost === true)).toEqual(['lost-answer']);
    expect(find((s) => s.answer?.delay_ms === 65_000)).toEqual(['late-answer']);
    expect(find((s) => s.respond?.status === 503 && s.respond.retry_after_ms !== undefined && s.respond.first_only === true)).toEqual(['unavailable']);
    // Every bundled scenario has a magic value (a match block), not only the header.
    expect(list.filter((s) => s.match.includes('header only'))).toEqual([]);
  });

  it('every bundled scenario is opt-in: its order pattern starts with ^sbx-', () => {
    for (const { scenario } of loadScenarios([{ path: BUNDLED_SCENARIOS, bundled: true }])) {
      expect(scenario.match?.order, scenario.name).toMatch(/^\^sbx-[a-z0-9]+-$/);
    }
  });

  it('no bundled scenario matches ordinary merchant traffic', () => {
    const engine = ScenarioEngine.load();
    // The old bundled prefixes (before 0.2.0) are ordinary orders too: a shop's "dup-fixed-1" was confirmed by one.
    const oldPrefixes = ['confirm-', 'cancel-', 'expire-', 'reject-', 'unauth-', 'slow-', 'flaky-', 'dup-', 'badsig-'].map((prefix) => `${prefix}1`);
    const orders = ['order-1001', nextOrder(), nextOrder('order'), 'ORD-2024-000017', 'a6c1b7e0-0f7e-4b8e-9b1e-6b0f1f0d7a11', '1001', 'dup-fixed-1', 'SBX-CONFIRM-1', 'sbx-1', ...oldPrefixes];
    const types: TradeType[] = ['any_bank', 'nspk', 'ecom'];
    for (const order of orders) {
      for (const type of types) {
        for (const amount_cents of [1, 100, 31250, 99_900, 150_000, 1_000_000]) {
          for (const merchant of [DEMO.id, SECOND.id]) {
            expect(engine.match({ order, type, amount_cents, merchant, customer: 'customer-1' })?.name, `${order} ${type} ${amount_cents}`).toBeUndefined();
          }
        }
      }
    }
  });
});
