import { MAX_PATTERNS_SIZE, patternProblem, patternSize } from './scenario-pattern.js';
import type { Scenario } from './scenario.js';

/** A pattern of a scenario file that cannot be used, at its field path. */
export interface PatternProblem {
  path: Array<string | number>;
  message: string;
}

/**
 * Checks the regular expressions of a scenario file (or upload) the way they will be matched:
 * their sizes together first (estimated, without compiling: at most MAX_PATTERNS_SIZE), then
 * each one compiled with RE2. So a file or an upload costs a bounded time to check, however
 * many patterns it holds.
 */
export function checkPatterns(scenarios: readonly Scenario[]): PatternProblem[] {
  const patterns: Array<{ path: Array<string | number>; source: string }> = [];
  scenarios.forEach((scenario, index) => {
    const { order, customer } = scenario.match ?? {};
    if (order !== undefined) patterns.push({ path: ['scenarios', index, 'match', 'order'], source: order });
    if (typeof customer === 'object') patterns.push({ path: ['scenarios', index, 'match', 'customer', 'regex'], source: customer.regex });
  });
  const total = patterns.reduce((sum, pattern) => sum + patternSize(pattern.source), 0);
  if (total > MAX_PATTERNS_SIZE) {
    return [
      {
        path: ['scenarios'],
        message: `holds regular expressions of about ${total} RE2 instructions in all; one file or upload may hold at most ${MAX_PATTERNS_SIZE}, so that matching a create request stays quick. Use fewer or simpler patterns (a counted repetition such as {100} repeats what it follows)`,
      },
    ];
  }
  const problems: PatternProblem[] = [];
  for (const { path, source } of patterns) {
    const problem = patternProblem(source);
    if (problem) problems.push({ path, message: `${JSON.stringify(source)} cannot be matched: ${problem}. Scenarios match with RE2 (see docs/scenarios.md, "Regular expressions")` });
  }
  return problems;
}
