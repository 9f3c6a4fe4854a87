import type { Component, Operation } from '../openapi/operation.js';
import { ADMIN_401, ADMIN_TOO_LARGE, error } from '../openapi/error-responses.js';
import { addMerchantAnswerSchema, scenarioUploadAnswerSchema, signAnswerSchema } from '../admin/admin-answers.js';
import { signRequestSchema } from '../admin/merchant-routes.js';
import { workspacesAnswerSchema } from './workspace-answers.js';
import { newMerchantSchema } from '../merchants/added-merchants.js';

const EVERY = 'Every /_sandbox route also works under /w/{name}/_sandbox for workspace {name}.';

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
    responses: { 200: { description: 'Each workspace with its trades, pending steps, clock and last use.', schema: workspacesAnswerSchema }, 401: ADMIN_401 },
  },
  {
    method: 'post',
    path: '/_sandbox/merchants',
    operationId: 'addMerchant',
    tag: 'sandbox',
    summary: 'Add a merchant to this workspace only',
    description: `Fields left out are generated; the token and secret are answered here only. ${EVERY}`,
    auth: 'admin',
    body: newMerchantSchema,
    responses: {
      201: { description: 'The new merchant with its token and secret.', schema: addMerchantAnswerSchema },
      401: ADMIN_401,
      409: error('The id is taken.'),
      413: ADMIN_TOO_LARGE,
      422: error('A field is not valid.'),
    },
  },
  {
    method: 'post',
    path: '/_sandbox/merchants/{id}/sign',
    operationId: 'signAsMerchant',
    tag: 'sandbox',
    summary: "Sign a string with a merchant's secret (without showing it)",
    auth: 'admin',
    pathParams: { id: 'The merchant id.' },
    body: signRequestSchema,
    responses: {
      200: { description: 'The hex HMAC-SHA256.', schema: signAnswerSchema },
      401: ADMIN_401,
      404: error('No such merchant in this workspace.'),
      413: ADMIN_TOO_LARGE,
      422: error('The body is not a JSON object holding string_to_sign.'),
    },
  },
  {
    method: 'put',
    path: '/_sandbox/scenarios',
    operationId: 'setWorkspaceScenarios',
    tag: 'sandbox',
    summary: "Set this workspace's own scenarios (a YAML body, the format of a scenario file)",
    description: `They are matched before the shared ones, replace the ones sent before, and are checked with the messages of scenario files. ${EVERY}`,
    auth: 'admin',
    responses: {
      200: { description: 'The scenarios now loaded, in match order.', schema: scenarioUploadAnswerSchema },
      401: ADMIN_401,
      413: ADMIN_TOO_LARGE,
      422: error('The YAML is not a valid scenario file (each problem with its line and field), or not UTF-8.'),
    },
  },
  {
    method: 'delete',
    path: '/_sandbox/scenarios',
    operationId: 'clearWorkspaceScenarios',
    tag: 'sandbox',
    summary: "Remove this workspace's own scenarios",
    auth: 'admin',
    responses: { 200: { description: 'The scenarios now loaded.', schema: scenarioUploadAnswerSchema }, 401: ADMIN_401 },
  },
];

/** The schemas those routes use, named for /openapi.json's components. */
export const WORKSPACE_SCHEMAS: { requests: Component[]; answers: Component[] } = {
  requests: [
    [newMerchantSchema, { id: 'NewMerchantRequest', description: 'Every field may be left out and is then generated.' }],
    [signRequestSchema, { id: 'SignRequest' }],
  ],
  answers: [
    [workspacesAnswerSchema, { id: 'WorkspacesAnswer' }],
    [addMerchantAnswerSchema, { id: 'AddMerchantAnswer' }],
    [signAnswerSchema, { id: 'SignAnswer' }],
    [scenarioUploadAnswerSchema, { id: 'ScenarioUploadAnswer' }],
  ],
};
