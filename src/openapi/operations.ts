import { integrationReportSchema } from '../report/report-schema.js';
import { ADMIN_401 } from './error-responses.js';
import { WORKSPACE_OPERATIONS } from '../workspaces/workspace-operations.js';

export type { Operation, OperationAuth, OperationResponse } from './operation.js';
import type { Operation } from './operation.js';

/** Every route /openapi.json documents: the provider's three endpoints and the admin API. */
export const OPERATIONS: readonly Operation[] = [
  {
    method: 'get',
    path: '/_sandbox/report',
    operationId: 'integrationReport',
    tag: 'sandbox',
    summary: "The merchant's mistakes and integration coverage the sandbox counted (integration report)",
    description: `Per merchant: 401 answers by cause, 422 answers by field and code, duplicate orders, callbacks answered non-2xx, timed out or never acknowledged, forged copies accepted. Only merchants with a mistake are listed. notes holds advice that is not a mistake (more than 60 reads of one trade within a minute of real time). coverage lists, per known merchant, which situations its tests met and how they answered (not_seen, seen, handled, wrong). At the root, every workspace's entries too, each with its workspace name (deleted workspaces kept until exit). Counted since the sandbox started, in memory.`,
    auth: 'admin',
    responses: { 200: { description: 'The report.', schema: integrationReportSchema }, 401: ADMIN_401 },
  },
  ...WORKSPACE_OPERATIONS,
] satisfies Operation[];
