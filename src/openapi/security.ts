/**
 * Who may call a route, as the `security` of its declaration: the provider's X-Auth (create) or
 * X-Token (get), the admin token (required only when the sandbox runs with --admin-token), or
 * anyone (the admin token is then accepted and ignored). The schemes are /openapi.json's
 * securitySchemes (src/openapi/document-from-routes.ts).
 */
export const SECURITY: Record<'xAuth' | 'xToken' | 'admin' | 'open', Array<Record<string, string[]>>> = {
  xAuth: [{ XAuth: [] }],
  xToken: [{ XToken: [] }],
  admin: [{ AdminToken: [] }, {}],
  open: [{}, { AdminToken: [] }],
};
