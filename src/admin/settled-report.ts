import type { IntegrationReport } from '../report/report-schema.js';
import { creditsSettled, type ReportedWorkspaces, serverReport } from '../report/server-report.js';
import type { Sandbox } from '../sandbox.js';

/**
 * The integration report a route answers for `sandbox`: of the workspace default, the whole
 * server's (every workspace's entries too); with --probe, once the credits of callbacks already
 * acknowledged are read (bounded).
 */
export async function settledReport(sandbox: Sandbox, server: { root: Sandbox; workspaces: ReportedWorkspaces }): Promise<IntegrationReport> {
  const others = sandbox === server.root ? server.workspaces : undefined;
  await creditsSettled(sandbox, others);
  return serverReport(sandbox, others);
}
