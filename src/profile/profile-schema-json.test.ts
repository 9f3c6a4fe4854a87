import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { BUILTIN_PROFILE_NAMES } from './builtin-profile-names.js';
import { BUILTIN_PROFILES } from './load-profile.js';
import { renderProfileSchemaJson } from './profile-schema-json.js';

describe('profiles/profile.schema.json', () => {
  it('is the JSON Schema of the zod schema (stale: `npx vitest run src/profile -u` writes it; commit the result)', async () => {
    await expect(renderProfileSchemaJson()).toMatchFileSnapshot('../../profiles/profile.schema.json');
  });

  it('accepts every built-in and refuses an unknown key, a wrong value and a file without a name', () => {
    const validate = new Ajv({ strict: false }).compile(JSON.parse(readFileSync(`${BUILTIN_PROFILES}profile.schema.json`, 'utf8')) as object);
    for (const name of BUILTIN_PROFILE_NAMES) {
      expect(validate(parse(readFileSync(`${BUILTIN_PROFILES}${name}.yaml`, 'utf8'))), `${name}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
    expect(validate({ name: 'p', extends: 'sandbox', callbacks: { acknowlege: '2xx' } })).toBe(false);
    expect(validate({ name: 'p', requests: { signature: { algorithm: 'sha-256' } } })).toBe(false);
    expect(validate({ extends: 'sandbox' })).toBe(false);
  });
});
