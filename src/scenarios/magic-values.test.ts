import { describe, expect, it } from 'vitest';
import { BUNDLED_SCENARIOS, loadScenarios } from './load-scenarios.js';
import { MAGIC_END, MAGIC_START, MarkersError, renderMagicValues, replaceMagicValues } from './magic-values.js';

describe('renderMagicValues', () => {
  it('has a row per bundled scenario, in match order', () => {
    const entries = loadScenarios([{ path: BUNDLED_SCENARIOS, bundled: true }]);
    const table = renderMagicValues(entries);
    const rows = table.split('\n').filter((line) => line.startsWith('| ') && !line.startsWith('| Send') && !line.startsWith('| ---'));
    expect(rows).toHaveLength(entries.length);
    expect(rows[0]).toBe('| order starting with `sbx-confirm-` | `confirm` | confirmed after 5s |');
    expect(table).toContain('X-Sandbox-Scenario: <name>');
  });

  it('escapes pipes inside cells', () => {
    const entries = loadScenarios([{ path: BUNDLED_SCENARIOS, bundled: true }]).slice(0, 1);
    const first = entries[0];
    if (!first) throw new Error('no bundled scenario');
    const table = renderMagicValues([{ ...first, scenario: { ...first.scenario, match: { order: 'a|b' } } }]);
    expect(table).toContain('order matching `/a\\|b/`');
  });
});

describe('replaceMagicValues', () => {
  const doc = `# Title\n\nBefore.\n\n${MAGIC_START}\nold table\n${MAGIC_END}\n\nAfter.\n`;

  it('replaces only what lies between the markers', () => {
    expect(replaceMagicValues(doc, 'NEW')).toBe(`# Title\n\nBefore.\n\n${MAGIC_START}\nNEW\n${MAGIC_END}\n\nAfter.\n`);
  });

  it('is idempotent', () => {
    const once = replaceMagicValues(doc, 'NEW');
    expect(replaceMagicValues(once, 'NEW')).toBe(once);
  });

  it('refuses missing, repeated or swapped markers', () => {
    expect(() => replaceMagicValues('# no markers\n', 'x', 'README.md')).toThrow(MarkersError);
    expect(() => replaceMagicValues('# no markers\n', 'x', 'README.md')).toThrow(/README\.md must hold the line <!-- magic-values:start -->/);
    expect(() => replaceMagicValues(`${MAGIC_END}\n${MAGIC_START}\n`, 'x')).toThrow(MarkersError);
    expect(() => replaceMagicValues(`${MAGIC_START}\n${MAGIC_END}\n${MAGIC_START}\n${MAGIC_END}\n`, 'x')).toThrow(MarkersError);
    expect(() => replaceMagicValues(`${MAGIC_START}\n`, 'x')).toThrow(MarkersError);
  });
});
