import { z } from 'zod';
import { durationSchema } from '../clock/duration-schema.js';

/**
 * How the sandbox misbehaves when sending one trade's callbacks, as a scenario asks
 * (the `callbacks:` block of a scenario file).
 */
export const callbackBehaviourSchema = z.strictObject({
  /** The first N attempts of each callback are not sent and count as failed (simulated outage), so retries follow. */
  fail_first: z.number().int().min(0).max(20).optional(),
  /** Wait this long (sandbox clock) before the first attempt. */
  delay: durationSchema.optional(),
  /** After a delivery, send the same event (same id, body and signature) once more. */
  duplicate: z.boolean({ error: 'must be true or false' }).optional(),
  /** Send every attempt twice at the same moment (same event id, attempt, body and signature): two deliveries that overlap. */
  overlap: z.boolean({ error: 'must be true or false' }).optional(),
  /** Before the real callback, send a copy whose X-Signature is wrong; a receiver must refuse it. */
  bad_signature: z.boolean({ error: 'must be true or false' }).optional(),
});
export type CallbackBehaviour = z.output<typeof callbackBehaviourSchema>;
