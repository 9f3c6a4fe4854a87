import { z } from 'zod';
import { profileFileSchema } from './profile-schema.js';

/**
 * The JSON Schema of a profile file, for editors (`# yaml-language-server: $schema=./profile.schema.json`
 * in YAML, `"$schema"` in JSON). Committed as profiles/profile.schema.json; a test fails when that
 * file is stale (`npx vitest run src/profile -u` writes it). Beyond it the loader refuses what JSON
 * Schema cannot say: an unknown `{{placeholder}}` in errors.body, a template that is not JSON once
 * filled in, a secret place that does not suit the algorithm.
 *
 * @example
 * writeFileSync('profiles/profile.schema.json', renderProfileSchemaJson());
 */
export function renderProfileSchemaJson(): string {
  const schema = z.toJSONSchema(profileFileSchema, { io: 'input', target: 'draft-7', unrepresentable: 'any' });
  const about = {
    title: 'deposit-sandbox provider profile',
    description: 'What the interface document leaves open (signature, callbacks, error body, states), as one named choice each: docs/provider-profile.md.',
  };
  return `${JSON.stringify({ ...schema, ...about }, null, 2)}\n`;
}
