/**
 * The HAR 1.2 JSON Schema (the har-schema package, draft-06), compiled with ajv and its formats:
 * harProblems(har) lists what a HAR breaks, [] when it is valid.
 */
import { createRequire } from 'node:module';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';

const require = createRequire(import.meta.url);
const schemas = require('har-schema') as Record<string, { $id: string }>;

// har-schema's files use keywords of their own ("optional", "min"), which strict mode refuses.
const ajv = new Ajv({ strict: false, allErrors: true });
addFormats.default(ajv);
ajv.addMetaSchema(require('ajv/dist/refs/json-schema-draft-06.json'));
for (const schema of Object.values(schemas)) ajv.addSchema(schema);
const validate = ajv.getSchema('har.json#');
if (!validate) throw new Error('har-schema: no har.json#');

export function harProblems(har: unknown): string[] {
  if (validate?.(har)) return [];
  return (validate?.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message ?? ''}`);
}
