import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isMap, isSeq, LineCounter, parseDocument } from 'yaml';
import { formatPath } from '../config/issues.js';
import { checkPatterns, type CompiledPatterns } from './check-patterns.js';
import { DEFAULT_TABLE, type TransitionTable } from '../lifecycle/transitions.js';
import { scenarioSchemas, type Scenario } from './scenario.js';
import { describeYamlIssues, formatProblem, locate, type FileProblem } from '../config/yaml-issues.js';
import { PARSED_ONCE } from '../config/parsed-once.js';

/** The scenarios shipped with the package (works from src/, dist/ and an installed package). */
export const BUNDLED_SCENARIOS = fileURLToPath(new URL('../../scenarios/', import.meta.url));

/** A scenario and where it was written. */
export interface LoadedScenario {
  scenario: Scenario;
  file: string;
  /** 1-based line of the scenario's first field. */
  line: number;
  bundled: boolean;
  /**
   * The compiled regular expressions of the file (or upload) it came from, compiled when it was
   * checked. Every engine that holds this entry (the server's and each workspace's) matches with
   * these; without them, an engine compiles each pattern on its first use.
   */
  patterns?: CompiledPatterns;
}

/** A folder (or a single file) of scenario YAML files. */
export interface ScenarioSource {
  path: string;
  bundled: boolean;
}

/** Scenario files that cannot be used; the message lists every problem with file, line and field. */
export class ScenarioError extends Error {
  override name = 'ScenarioError';
  readonly problems: FileProblem[];

  constructor(problems: FileProblem[]) {
    super(
      `Invalid scenario ${new Set(problems.map((p) => p.file)).size === 1 ? 'file' : 'files'} (${problems.length} ${problems.length === 1 ? 'problem' : 'problems'}):\n  ${problems.map(formatProblem).join('\n  ')}\nThe format is described in scenarios/schema.json and docs/scenarios.md.`,
    );
    this.problems = problems;
  }
}

/**
 * How many times the aliases of one scenario file may be expanded in all (the yaml package's
 * `maxAliasCount`, its default written out): enough for a shared timeline referenced by a few
 * scenarios, far too few for aliases that nest and multiply.
 */
export const MAX_ALIAS_COUNT = 100;

type Parsed = { ok: true; scenarios: { scenario: Scenario; line: number }[]; patterns: CompiledPatterns } | { ok: false; problems: FileProblem[] };

/**
 * Parses and validates the text of one scenario file. `table` is the transition table of the
 * provider profile it is checked against: its timelines may name that profile's intermediate
 * states (the `sandbox` profile's, none, when left out).
 */
export function parseScenarioFile(text: string, file: string, table: TransitionTable = DEFAULT_TABLE): Parsed {
  const { scenarioFileSchema } = scenarioSchemas(table);
  const counter = new LineCounter();
  const doc = parseDocument(text, { lineCounter: counter, prettyErrors: true });
  if (doc.errors.length > 0) {
    return {
      ok: false,
      problems: doc.errors.map((error) => ({
        file,
        ...(error.linePos ? { line: error.linePos[0].line, column: error.linePos[0].col } : {}),
        path: '',
        message: `is not valid YAML: ${(error.message.split('\n')[0] ?? '').replace(/ at line \d+, column \d+:?$/, '')}`,
      })),
    };
  }
  if (doc.contents === null) {
    return { ok: false, problems: [{ file, line: 1, column: 1, path: '', message: 'is empty; it must hold a "scenarios:" list (see docs/scenarios.md for an example)' }] };
  }
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (error) {
    // The yaml package throws a ReferenceError for an alias it will not expand (too many, or none such).
    if (!(error instanceof ReferenceError)) throw error;
    const message = /Excessive alias count/.test(error.message)
      ? `expands YAML aliases (*name) more than ${MAX_ALIAS_COUNT} times in all; aliases of lists that hold aliases multiply (the "billion laughs" pattern), so the sandbox does not expand them. Write the values out, or use fewer aliases`
      : `has a YAML alias that cannot be expanded: ${error.message}`;
    return { ok: false, problems: [{ file, line: 1, column: 1, path: '', message }] };
  }
  const result = scenarioFileSchema.safeParse(data, PARSED_ONCE);
  if (!result.success) return { ok: false, problems: describeYamlIssues(file, doc, counter, result.error, scenarioFileSchema) };
  const { problems, patterns } = checkPatterns(result.data.scenarios);
  if (problems.length > 0) {
    return {
      ok: false,
      problems: problems.map(({ path, message }) => {
        const where = locate(doc, counter, path);
        return { file, ...(where ? { line: where.line, column: where.column } : {}), path: formatPath(path), message };
      }),
    };
  }

  const list = isMap(doc.contents) ? doc.contents.get('scenarios', true) : undefined;
  return {
    ok: true,
    patterns,
    scenarios: result.data.scenarios.map((scenario, index) => ({
      scenario,
      line: (isSeq(list) ? locate(doc, counter, ['scenarios', index])?.line : undefined) ?? 1,
    })),
  };
}

/** The scenario files of a source in the order they are matched: file names in code-point order. */
export function scenarioFiles(source: ScenarioSource): string[] | FileProblem {
  let isDirectory: boolean;
  try {
    isDirectory = statSync(source.path).isDirectory();
  } catch {
    return { file: source.path, path: '', message: 'does not exist; --scenarios takes a folder of .yaml scenario files (or one file)' };
  }
  if (!isDirectory) return [source.path];
  const files = readdirSync(source.path)
    .filter((name) => /\.ya?ml$/i.test(name))
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .map((name) => join(source.path, name));
  if (files.length === 0) return { file: source.path, path: '', message: 'holds no .yaml or .yml files; put scenario files in it or leave --scenarios out' };
  return files;
}

/**
 * The bundled files as last parsed, by path: every sandbox of a process (each `startSandbox()`,
 * each workspace's registry, each test) loads the same few shipped files, and parsing them (YAML,
 * the schema, RE2 compiling their patterns) is the costly part of creating a sandbox. A file is
 * parsed again when its text differs from the one parsed. Its scenarios and compiled patterns are
 * then shared by the sandboxes of the process, as a server's already are by its workspaces: none
 * is ever changed, and they hold no tenant's data (docs/architecture.md).
 */
const bundledFiles = new Map<string, { text: string; parsed: Parsed }>();

function parseBundledFile(text: string, file: string): Parsed {
  const known = bundledFiles.get(file);
  if (known?.text === text) return known.parsed;
  const parsed = parseScenarioFile(text, file);
  if (parsed.ok) bundledFiles.set(file, { text, parsed });
  return parsed;
}

/**
 * Loads scenarios from sources in order (user folder first, bundled last). Throws a
 * ScenarioError listing every broken file and every name used twice. A user file is checked
 * against `table`, the transition table of the server's provider profile (the bundled files name
 * only the sandbox's own states, which every profile has).
 */
export function loadScenarios(sources: readonly ScenarioSource[], table: TransitionTable = DEFAULT_TABLE): LoadedScenario[] {
  const problems: FileProblem[] = [];
  const loaded: LoadedScenario[] = [];
  const byName = new Map<string, LoadedScenario>();
  for (const source of sources) {
    const files = scenarioFiles(source);
    if (!Array.isArray(files)) {
      problems.push(files);
      continue;
    }
    for (const file of files) {
      let text: string;
      try {
        text = readFileSync(file, 'utf8');
      } catch (error) {
        problems.push({ file, path: '', message: `cannot be read: ${(error as Error).message}` });
        continue;
      }
      const parsed = source.bundled ? parseBundledFile(text, file) : parseScenarioFile(text, file, table);
      if (!parsed.ok) {
        problems.push(...parsed.problems);
        continue;
      }
      parsed.scenarios.forEach(({ scenario, line }, index) => {
        const entry = { scenario, file, line, bundled: source.bundled, patterns: parsed.patterns };
        const first = byName.get(scenario.name.toLowerCase());
        if (first) {
          problems.push(repeatedName(file, line, index, scenario.name, first));
          return;
        }
        byName.set(scenario.name.toLowerCase(), entry);
        loaded.push(entry);
      });
    }
  }
  if (problems.length > 0) throw new ScenarioError(problems);
  return loaded;
}

/** The problem of a scenario whose name an earlier one (`first`) already has. */
export function repeatedName(file: string, line: number, index: number, name: string, first: { file: string; line: number }): FileProblem {
  return {
    file,
    line,
    column: 1,
    path: `scenarios[${index}].name`,
    message: `repeats the name "${name}" of the scenario at ${first.file}:${first.line}; names must be unique (X-Sandbox-Scenario picks a scenario by name), so rename one of them`,
  };
}
