import type { Sandbox } from '../sandbox.js';
import { MistakeCounter } from './mistake-counter.js';
import { mergeCoverage } from './merge-coverage.js';
import type { IntegrationReport, MerchantCoverage } from './report-schema.js';

const nameIn = (sandbox: Sandbox) => (merchant: string) => sandbox.merchants.get(merchant)?.name;

/** What the report of a whole server reads of its other workspaces (WorkspaceRegistry). */
export interface ReportedWorkspaces {
  loadedSandboxes(): Sandbox[];
  readonly removedReports: ReadonlyMap<string, MistakeCounter>;
}

/**
 * The report of `root` and, given its server's `others`, of the whole server: its counts, then
 * every other workspace's, loaded or removed since the process started (each entry named by its
 * `workspace`), by workspace name. A workspace removed and created again under the same name is
 * reported once, both added up.
 */
export function serverReport(root: Sandbox, others?: ReportedWorkspaces): IntegrationReport {
  const parts = [root.report.report(nameIn(root))];
  if (others !== undefined) {
    const registry = others;
    const live = new Map(registry.loadedSandboxes().map((sandbox) => [sandbox.workspace, sandbox]));
    const deleted = registry.removedReports;
    for (const name of [...new Set([...live.keys(), ...deleted.keys()])].sort()) {
      const sandbox = live.get(name);
      const kept = deleted.get(name);
      let counter = sandbox?.report ?? kept;
      if (sandbox !== undefined && kept !== undefined) {
        counter = new MistakeCounter();
        counter.absorb(kept);
        counter.absorb(sandbox.report);
      }
      if (counter !== undefined) parts.push(counter.report(sandbox ? nameIn(sandbox) : () => undefined, name));
    }
  }
  // One probe for the whole server (--probe), so every merchant's credits were checked, or none.
  const credits: MerchantCoverage['credits'] = root.credits.on ? 'checked' : 'not_checked';
  const coverage = parts.flatMap((part) => part.coverage.map(({ rows, ...m }) => ({ ...m, credits, rows })));
  return {
    total: parts.reduce((sum, part) => sum + part.total, 0),
    merchants: parts.flatMap((part) => part.merchants),
    notes: parts.flatMap((part) => part.notes),
    coverage,
    // Only where workspaces reported: the report of a server without any keeps its shape.
    ...(parts.length > 1 ? { coverage_merged: mergeCoverage(coverage) } : {}),
  };
}

/**
 * Waits for the balance probe's answers on callbacks already acknowledged, of this sandbox and
 * (at the root) every loaded workspace: so a report asked right after the last callback has its
 * credits checked. Bounded: at most one probe timeout (--callback-timeout) in all.
 */
export async function creditsSettled(root: Sandbox, others?: ReportedWorkspaces): Promise<void> {
  if (!root.credits.on) return;
  const sandboxes = [root, ...(others?.loadedSandboxes() ?? [])];
  await Promise.all(sandboxes.map((sandbox) => sandbox.credits.settled(root.options.callbackTimeout)));
}
