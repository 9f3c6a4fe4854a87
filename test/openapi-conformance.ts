/**
 * Checks an answer of the app against /openapi.json: the route is documented, the status is
 * documented for it, and the body has the documented media type and, for JSON, the documented
 * schema (ajv, formats included). makeSandbox() runs it on every app.request() of the suites
 * that use it, so every answer those suites provoke is checked, not only chosen examples.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { openApiDocument } from '../src/openapi/openapi-document.js';

// biome-ignore lint/suspicious/noExplicitAny: walks JSON of any shape
type Json = Record<string, any>;

const BASE = 'https://deposit-sandbox.test/openapi.json';
const doc = openApiDocument() as Json;
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);
ajv.addSchema({ $id: BASE, components: doc['components'] });
const compiled = new Map<string, ValidateFunction>();
/** The same, by the schema object (the document's own schemas are asked for again and again). */
const bySchema = new WeakMap<Json, ValidateFunction>();

const routes = Object.entries(doc['paths'] as Record<string, Json>).map(([template, item]) => ({
  template,
  pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`),
  item,
}));

/** A workspace's prefix: every route of the document also works under /w/{name} (docs/workspaces.md). */
const WORKSPACE = /^\/w\/[^/]+(?=\/|$)/;

const ERROR_ENVELOPE: Json = { $ref: '#/components/schemas/ErrorEnvelope' };
const WORKSPACE_DELETED: Json = { type: 'object', required: ['status', 'workspace'] };

/** Files the pages load (CSS, scripts): served as they are, not API operations. */
const STATIC = /^\/(_sandbox\/|go-live\/)?assets\//;

function validator(schema: Json): ValidateFunction {
  const known = bySchema.get(schema);
  if (known) return known;
  const key = JSON.stringify(schema);
  let validate = compiled.get(key);
  if (!validate) {
    const rebased = JSON.parse(key.replaceAll('"#/components/', `"${BASE}#/components/`)) as Json;
    validate = ajv.compile(rebased);
    compiled.set(key, validate);
  }
  bySchema.set(schema, validate);
  return validate;
}

/** Why an answer does not conform to the document, or undefined when it does. */
export function conformanceError(method: string, path: string, status: number, contentType: string | null, body: string): string | undefined {
  const verb = method.toLowerCase() === 'head' ? 'get' : method.toLowerCase();
  if (verb === 'options') return undefined; // CORS preflights: the browser's protocol, not an operation
  if (method.toUpperCase() === 'HEAD') body = ''; // no body to check; the status and type still are
  const pathname = path.split('?')[0] ?? path;
  const route = routes.find((candidate) => candidate.pattern.test(pathname) && candidate.item[verb]);
  const where = `${method} ${pathname} answered ${status}`;
  if (!route && WORKSPACE.test(pathname)) {
    // The same route without the prefix; or a refusal of the workspace itself (a bad name, the
    // limit, a store that cannot load) in the error envelope; or DELETE /w/{name}/_sandbox.
    const inner = pathname.replace(WORKSPACE, '') || '/';
    const problem = conformanceError(method, inner, status, contentType, body);
    if (problem === undefined) return undefined;
    if (status >= 400 && jsonError(where, ERROR_ENVELOPE, contentType, body) === undefined) return undefined;
    if (verb === 'delete' && inner === '/_sandbox') return jsonError(where, WORKSPACE_DELETED, contentType, body);
    return problem;
  }
  if (!route) {
    if (STATIC.test(pathname)) return undefined;
    if (pathname === '/_sandbox' && status === 301) return undefined; // the redirect to the dashboard, documented on /_sandbox/
    // Unknown routes and methods: the error envelope (not_found, or the guard or admin token refusal that comes first).
    if (status >= 400) return jsonError(where, ERROR_ENVELOPE, contentType, body);
    return `${where}, but /openapi.json does not list it`;
  }
  const operation = route.item[verb] as Json;
  const response = operation['responses'][String(status)] as Json | undefined;
  if (!response) return `${where}, a status /openapi.json does not list for ${verb.toUpperCase()} ${route.template} (it lists ${Object.keys(operation['responses']).join(', ')})`;
  const content = response['content'] as Json | undefined;
  if (!content) return undefined;
  // The media type the answer has, among those listed (an answer may come in several: ?format=).
  const listed = Object.entries(content) as Array<[string, Json]>;
  const found = listed.find(([type]) => (contentType ?? '').toLowerCase().startsWith(type));
  if (!found) return `${where} with Content-Type ${contentType}, but /openapi.json says ${listed.map(([type]) => type).join(' or ')}`;
  const [mediaType, media] = found;
  if (mediaType !== 'application/json' || method.toUpperCase() === 'HEAD') return undefined;
  return jsonError(where, media['schema'] as Json, contentType, body);
}

function jsonError(where: string, schema: Json, contentType: string | null, body: string): string | undefined {
  if (!(contentType ?? '').toLowerCase().startsWith('application/json')) return `${where} with Content-Type ${contentType}, not JSON`;
  if (where.startsWith('HEAD ')) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return `${where} with a body that is not JSON: ${body.slice(0, 200)}`;
  }
  const validate = validator(schema);
  if (validate(value)) return undefined;
  return `${where} with a body /openapi.json does not allow: ${(validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`).join('; ')}\n${body.slice(0, 500)}`;
}
