import type { Operation } from '../openapi/operation.js';
import { ADMIN_401 } from '../openapi/error-responses.js';
import { named } from '../openapi/schema-name.js';
import { workspacesAnswerSchema } from './workspace-answers.js';

named('WorkspacesAnswer', workspacesAnswerSchema);

/** The routes of workspaces (src/workspaces), for /openapi.json. */
export const WORKSPACE_OPERATIONS: Operation[] = [
  {
    method: 'get',
    path: '/_sandbox/workspaces',
    operationId: 'listWorkspaces',
    tag: 'sandbox',
    summary: 'The workspaces of this server (default first)',
    description: 'A workspace is an isolated sandbox under the path prefix /w/{name}, created on first use; DELETE /w/{name}/_sandbox removes one.',
    auth: 'admin',
    responses: { 200: { description: 'Each workspace with its trades, pending steps, clock and last use.', schema: workspacesAnswerSchema }, 401: ADMIN_401 as never },
  },
];
