import { effectSummary, magicPhrases } from './describe-scenario.js';
import type { LoadedScenario } from './load-scenarios.js';
import { SCENARIO_HEADER } from './scenario.js';

export const MAGIC_START = '<!-- magic-values:start -->';
export const MAGIC_END = '<!-- magic-values:end -->';

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** The README's magic-values table (Markdown) for the given scenarios, in match order. */
export function renderMagicValues(entries: readonly LoadedScenario[]): string {
  const rows = entries.map(({ scenario }) => {
    const phrases = magicPhrases(scenario.match);
    const send = phrases.length > 0 ? phrases.map((p) => p.markdown).join(' and ') : `only \`${SCENARIO_HEADER}: ${scenario.name}\``;
    return `| ${cell(send)} | \`${scenario.name}\` | ${cell(effectSummary(scenario))} |`;
  });
  return [
    '| Send | Scenario | What happens |',
    '| --- | --- | --- |',
    ...rows,
    '',
    `Any scenario can also be picked by name with the \`${SCENARIO_HEADER}: <name>\` header on a create request; the header wins over matching. Times are on the sandbox clock (\`POST /_sandbox/clock/advance\` moves it), except the create delay, which is real time.`,
  ].join('\n');
}

export class MarkersError extends Error {
  override name = 'MarkersError';
}

/**
 * Replaces what lies between the magic-values markers of a Markdown text with `table`,
 * leaving everything else byte for byte. Throws when the markers are missing or out of order.
 */
export function replaceMagicValues(markdown: string, table: string, file = 'the Markdown file'): string {
  const start = markdown.indexOf(MAGIC_START);
  const end = markdown.indexOf(MAGIC_END);
  if (start === -1 || end === -1 || end < start || markdown.indexOf(MAGIC_START, start + 1) !== -1 || markdown.indexOf(MAGIC_END, end + 1) !== -1) {
    throw new MarkersError(`${file} must hold the line ${MAGIC_START} and, after it, the line ${MAGIC_END} (once each); the magic-values table is written between them.`);
  }
  return `${markdown.slice(0, start + MAGIC_START.length)}\n${table}\n${markdown.slice(end)}`;
}
