import { compilePattern, MAX_PATTERNS_SIZE, patternSize, type ScenarioPattern } from './scenario-pattern.js';
import type { Scenario } from './scenario.js';

/** A pattern of a scenario file that cannot be used, at its field path. */
export interface PatternProblem {
  path: Array<string | number>;
  message: string;
}

/** The compiled regular expressions of one scenario file or upload, by their source text. */
export type CompiledPatterns = ReadonlyMap<string, ScenarioPattern>;

/**
 * Checks the regular expressions of a scenario file (or upload) the way they will be matched:
 * their sizes together first (estimated, without compiling: at most MAX_PATTERNS_SIZE), then
 * each one compiled with RE2. So a file or an upload costs a bounded time to check, however
 * many patterns it holds. What compiled is kept (`patterns`): the engines that hold the file's
 * scenarios match with it, so a pattern is compiled once per file, not once per workspace.
 */
export function checkPatterns(scenarios: readonly Scenario[]): { problems: PatternProblem[]; patterns: CompiledPatterns } {
  const patterns: Array<{ path: Array<string | number>; source: string }> = [];
  scenarios.forEach((scenario, index) => {
    const { order, customer } = scenario.match ?? {};
    if (order !== undefined) patterns.push({ path: ['scenarios', index, 'match', 'order'], source: order });
    if (typeof customer === 'object') patterns.push({ path: ['scenarios', index, 'match', 'customer', 'regex'], source: customer.regex });
  });
  const total = patterns.reduce((sum, pattern) => sum + patternSize(pattern.source), 0);
  const compiled = new Map<string, ScenarioPattern>();
  if (total > MAX_PATTERNS_SIZE) {
    const problems = [
      {
        path: ['scenarios'],
        message: `holds regular expressions of about ${total} RE2 instructions in all; one file or upload may hold at most ${MAX_PATTERNS_SIZE}, so that matching a create request stays quick. Use fewer or simpler patterns (a counted repetition such as {100} repeats what it follows)`,
      },
    ];
    return { problems, patterns: compiled };
  }
  const problems: PatternProblem[] = [];
  for (const { path, source } of patterns) {
    if (compiled.has(source)) continue;
    try {
      compiled.set(source, compilePattern(source));
    } catch (error) {
      problems.push({ path, message: `${JSON.stringify(source)} cannot be matched: ${(error as Error).message}. Scenarios match with RE2 (see docs/scenarios.md, "Regular expressions")` });
    }
  }
  return { problems, patterns: compiled };
}
