import type { Operation } from './operation.js';

/** The pages a browser opens: the hosted payment page, its result page, the dashboard, and this document. */
export const PAGE_OPERATIONS: readonly Operation[] = [
  {
    method: 'get',
    path: '/openapi.json',
    operationId: 'openApiDocument',
    tag: 'pages',
    summary: 'This document',
    description: 'Any origin may read it (CORS *), with or without --admin-token.',
    auth: 'open',
    responses: { 200: { description: 'An OpenAPI 3.1 document.', content: { mediaType: 'application/json', description: 'OpenAPI 3.1' } } },
  },
];
