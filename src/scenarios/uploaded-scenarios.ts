import { parseScenarioFile, repeatedName, ScenarioError, type LoadedScenario } from './load-scenarios.js';
import { ScenarioEngine } from './scenario-engine.js';
import type { FileProblem } from '../config/yaml-issues.js';
import type { Store } from '../store/store.js';
import { quietLogger } from '../log/logger.js';
import { DEFAULT_TABLE, transitionTable, type TransitionTable } from '../lifecycle/transitions.js';
import { STATE_NAME } from '../trades/trade.js';

/** The meta row that keeps a workspace's own scenario text. */
const ROW = 'scenarios';

/** The name a workspace's uploaded scenarios go by in messages and listings, in place of a file. */
export const uploadName = (workspace: string): string => (workspace === 'default' ? 'PUT /_sandbox/scenarios' : `PUT /w/${workspace}/_sandbox/scenarios`);

export type ScenarioUpload = { ok: true; entries: LoadedScenario[] } | { ok: false; error: ScenarioError };

/**
 * Checks scenario YAML sent for one workspace the way files are checked at start-up (same
 * messages, with `file` standing for the upload), and that no name repeats a shared scenario's.
 * `table` is the transition table of the workspace's provider profile: a timeline may name its
 * intermediate states.
 */
export function parseScenarioUpload(text: string, file: string, shared: readonly LoadedScenario[], table: TransitionTable = DEFAULT_TABLE): ScenarioUpload {
  const parsed = parseScenarioFile(text, file, table);
  if (!parsed.ok) return { ok: false, error: new ScenarioError(parsed.problems) };
  const problems: FileProblem[] = [];
  const byName = new Map(shared.map((entry) => [entry.scenario.name.toLowerCase(), entry]));
  const entries: LoadedScenario[] = [];
  parsed.scenarios.forEach(({ scenario, line }, index) => {
    const first = byName.get(scenario.name.toLowerCase());
    if (first) {
      problems.push(repeatedName(file, line, index, scenario.name, first));
      return;
    }
    const entry = { scenario, file, line, bundled: false, patterns: parsed.patterns };
    byName.set(scenario.name.toLowerCase(), entry);
    entries.push(entry);
  });
  return problems.length > 0 ? { ok: false, error: new ScenarioError(problems) } : { ok: true, entries };
}

/**
 * The intermediate states an upload was checked against, as its row keeps them (none for the
 * `sandbox` profile): it is restored under the same table, also when the profile changed since
 * (a create then says which state the profile in force lacks).
 */
function checkedStates(row: Record<string, unknown>): readonly string[] {
  const states = row['states'];
  return Array.isArray(states) && states.every((state) => typeof state === 'string' && STATE_NAME.test(state)) ? (states as string[]) : [];
}

/** The scenario engine of a sandbox: its uploaded scenarios (kept in the store) first, then the shared ones. */
export function restoreUploadedScenarios(store: Store, shared: readonly LoadedScenario[], warn: (line: string) => void = quietLogger.warn): ScenarioEngine {
  const row = store.meta.get(ROW);
  if (typeof row?.['yaml'] !== 'string' || typeof row['file'] !== 'string') return new ScenarioEngine(shared);
  const upload = parseScenarioUpload(row['yaml'], row['file'], shared, transitionTable(checkedStates(row)));
  if (!upload.ok) {
    // A later version's bundled scenario may now share a name: say so and go on without the upload.
    warn(`the scenarios uploaded to this workspace were set aside:\n  ${upload.error.message}`);
    return new ScenarioEngine(shared);
  }
  return new ScenarioEngine([...upload.entries, ...shared]);
}

/**
 * Replaces a sandbox's uploaded scenarios with those in `text` (or removes them, for null).
 * They go in front of the shared ones and are stored, so they survive a restart and a reset.
 * Saved first: they take effect once written, and a failed write (a WriteFailedError, rejected)
 * leaves the workspace's scenarios as they were. They are checked against the sandbox's provider
 * profile in force (`profile`: its intermediate states; the `sandbox` profile's when left out).
 */
export async function setUploadedScenarios(
  sandbox: {
    store: Store;
    scenarios: ScenarioEngine;
    shared: { scenarios: readonly LoadedScenario[] };
    workspace: string;
    profile?: { readonly states: { readonly intermediate: readonly string[] } };
  },
  text: string | null,
): Promise<ScenarioUpload> {
  if (text === null) {
    sandbox.store.meta.delete(ROW);
    await sandbox.store.commit();
    sandbox.scenarios = new ScenarioEngine(sandbox.shared.scenarios);
    return { ok: true, entries: [] };
  }
  const file = uploadName(sandbox.workspace);
  const states = sandbox.profile?.states.intermediate ?? [];
  const upload = parseScenarioUpload(text, file, sandbox.shared.scenarios, transitionTable(states));
  if (!upload.ok) return upload;
  // The states it was checked against, to restore it under the same table (kept only when there are some).
  sandbox.store.meta.put({ id: ROW, file, yaml: text, ...(states.length > 0 ? { states: [...states] } : {}) });
  await sandbox.store.commit();
  sandbox.scenarios = new ScenarioEngine([...upload.entries, ...sandbox.shared.scenarios]);
  return upload;
}
