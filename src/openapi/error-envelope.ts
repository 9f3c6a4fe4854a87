import { z } from 'zod';
import { named } from './schema-name.js';

/**
 * The error envelope of src/errors.ts as a zod schema, for /openapi.json. Its type equals
 * the ErrorEnvelope interface there (test/in-process/openapi.test.ts asserts it at type level).
 */
export const errorEnvelopeSchema = named(
  'ErrorEnvelope',
  z.object({
    error: z.object({
      /** The HTTP status, repeated. */
      status: z.number().int(),
      /** A stable code, e.g. validation_failed, invalid_signature, not_found, admin_token_required. */
      code: z.string(),
      /** What failed, why, and what to do. */
      message: z.string(),
      /** One entry per field at fault. */
      details: z.array(z.object({ field: z.string(), message: z.string() })),
      /** On a signature mismatch only: what the sandbox computed (never the secret). */
      signature: z.object({ header: z.string(), algorithm: z.string(), string_to_sign: z.string(), received: z.string() }).optional(),
      /** On an admin 409 only: the states the trade may move to now. */
      allowed: z.array(z.string()).optional(),
    }),
  }),
  'Every error answer.',
);
