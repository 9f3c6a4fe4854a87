import { DEFAULT_ERROR_BODY } from '../profile/default-error-body.js';
import { DEFAULT_PROFILE, loadProfile } from '../profile/load-profile.js';
import type { Profile } from '../profile/profile-schema.js';
import { PLACEHOLDER } from '../profile/render-error-body.js';
import { signsLikeSandbox } from '../profile/request-scheme.js';
import { describeSigning } from '../profile/sign-request.js';
import { callbackOperation } from './callback-operation.js';

type Json = Record<string, unknown>;

/** The provider's operations, whose security and error bodies follow the profile. */
const PROVIDER_OPERATIONS = [
  ['/api/v1/trades/deposit/create', 'post'],
  ['/api/v1/trades/deposit/build', 'post'],
  ['/api/v1/trades/{merchant}/{uuid}', 'get'],
] as const;

/** The answers whose body is the profile's errors.body. */
const SHAPED_STATUSES = ['401', '404', '422'] as const;

/** The security scheme of a signature that travels in a header of its own. */
const SIGNATURE_SCHEME = 'Signature';

/** What each placeholder of errors.body holds, as JSON Schema. */
const PLACEHOLDER_SCHEMAS: Record<string, Json> = {
  status: { type: 'integer', description: 'The HTTP status, repeated.' },
  code: { type: 'string', description: 'A stable code, e.g. validation_failed, signature_mismatch, not_found.' },
  message: { type: 'string', description: 'What failed, why, and what to do.' },
  details: {
    type: 'array',
    items: { type: 'object', required: ['field', 'message'], properties: { field: { type: 'string' }, message: { type: 'string' } } },
    description: 'One entry per field at fault.',
  },
};

/**
 * The document of a sandbox whose provider profile differs from `sandbox`'s: the provider
 * operations' security says how the profile signs (and names a signature header of its own), and
 * their 401, 404 and 422 answers take the profile's errors.body as their schema (ProviderError).
 * and the callback of create and build names its signature headers and acknowledgement. Under
 * `sandbox` (or a profile that signs, answers errors and sends callbacks the same way) the
 * document is returned as it is.
 *
 * @example
 * profileDocument(openApiDocument({ serverUrl }), loadProfile('hmac-sha512-base64'))
 */
export function profileDocument(document: Json, profile: Profile): Json {
  const signing = !signsLikeSandbox(profile.requests.signature);
  const errors = profile.errors.body !== DEFAULT_ERROR_BODY;
  const callbacks = callbackOperation(profile);
  const ownCallbacks = JSON.stringify(callbacks) !== JSON.stringify(callbackOperation(loadProfile(DEFAULT_PROFILE)));
  if (!signing && !errors && !ownCallbacks) return document;
  const doc = structuredClone(document) as Json & { paths: Record<string, Record<string, Json>>; components: Json & { schemas: Record<string, Json>; securitySchemes: Record<string, Json> } };
  if (signing) describeProfileSigning(doc, profile);
  if (ownCallbacks) addCallbacks(doc, callbacks);
  if (errors) {
    doc.components.schemas['ProviderError'] = {
      ...errorBodySchema(profile.errors.body),
      description: `Error answers of the provider endpoints under the provider profile "${profile.name}" (errors.body).`,
    };
    for (const [path, method] of PROVIDER_OPERATIONS) {
      const responses = (doc.paths[path]?.[method]?.['responses'] ?? {}) as Record<string, Json>;
      for (const status of SHAPED_STATUSES) {
        const answer = responses[status];
        if (answer) answer['content'] = { 'application/json': { schema: { $ref: '#/components/schemas/ProviderError' } } };
      }
    }
  }
  return doc;
}

function describeProfileSigning(doc: { paths: Record<string, Record<string, Json>>; components: { securitySchemes: Record<string, Json> } }, profile: Profile): void {
  const create = describeSigning(profile, 'create', {});
  const get = describeSigning(profile, 'get', {});
  const where = (header: string, token: string) => (header === token ? `in ${token} itself, instead of the token` : `in ${header}, beside the token in ${token}`);
  const schemes = doc.components.securitySchemes;
  schemes['XAuth'] = {
    ...schemes['XAuth'],
    description: `Create endpoints. The merchant's token; a signature under the provider profile "${profile.name}" (${create.algorithm}, ${create.key}) travels ${where(create.header, 'X-Auth')}. Which ones count depends on --auth.`,
  };
  schemes['XToken'] = {
    ...schemes['XToken'],
    description: `Get endpoint. The merchant's token; a signature (${get.algorithm} of "merchant${profile.requests.signature.separator}uuid", ${get.key}) travels ${where(get.header, 'X-Token')}.`,
  };
  const header = profile.requests.signature.header;
  if (header === undefined) return;
  schemes[SIGNATURE_SCHEME] = { type: 'apiKey', in: 'header', name: header, description: `The request's signature under the provider profile "${profile.name}" (${create.algorithm}, ${create.key}).` };
  for (const [path, method] of PROVIDER_OPERATIONS) {
    const operation = doc.paths[path]?.[method];
    if (!operation) continue;
    const token = method === 'get' ? 'XToken' : 'XAuth';
    // Token alone (--auth token or either), or token and signature (--auth signature or either).
    operation['security'] = [{ [token]: [] }, { [token]: [], [SIGNATURE_SCHEME]: [] }];
  }
}

/**
 * Puts the callback a created trade gets (src/openapi/callback-operation.ts) under create and
 * build: openApiDocument() with the sandbox profile's, profileDocument() with another's.
 */
export function addCallbacks(doc: { paths: Record<string, Record<string, Json>> }, callbacks: Json): void {
  for (const [path, method] of PROVIDER_OPERATIONS) {
    const operation = doc.paths[path]?.[method];
    if (operation && method === 'post') operation['callbacks'] = callbacks;
  }
}

/**
 * A JSON Schema of the bodies an errors.body template produces: its literal parts as constants,
 * each placeholder as the schema of its value, objects with exactly the template's keys.
 *
 * @example
 * errorBodySchema('{"ok":false,"error":{{code}}}')
 * // { type: 'object', required: ['ok', 'error'], additionalProperties: false, properties: { ok: { const: false }, error: { type: 'string', ... } } }
 */
export function errorBodySchema(template: string): Json {
  const markers = new Map<string, string>();
  const text = template.replace(PLACEHOLDER, (_whole, name: string) => {
    const marker = `\u0000placeholder:${markers.size}`;
    markers.set(marker, name);
    return JSON.stringify(marker);
  });
  const walk = (value: unknown): Json => {
    if (typeof value === 'string' && markers.has(value)) return PLACEHOLDER_SCHEMAS[markers.get(value) ?? ''] ?? {};
    if (Array.isArray(value)) return { type: 'array', prefixItems: value.map(walk), items: false };
    if (value !== null && typeof value === 'object') {
      const entries = Object.entries(value as Json);
      return { type: 'object', required: entries.map(([key]) => key), additionalProperties: false, properties: Object.fromEntries(entries.map(([key, inner]) => [key, walk(inner)])) };
    }
    return { const: value };
  };
  return walk(JSON.parse(text));
}
