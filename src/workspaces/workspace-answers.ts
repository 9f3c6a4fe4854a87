import { z } from 'zod';
import { merchantSchema } from '../merchants/fixtures.js';
import { scenarioSummarySchema } from '../scenarios/describe-scenario.js';

/** One workspace as GET /_sandbox/workspaces lists it. */
export const workspaceSummarySchema = z.object({
  name: z.string(),
  /** Base URL path of the workspace: '' for default, '/w/<name>' otherwise. */
  path: z.string(),
  trades: z.number().int(),
  pending_steps: z.number().int(),
  callbacks: z.number().int(),
  clock: z.object({ mode: z.enum(['real', 'manual']), now: z.string() }),
  /** Wall-clock time of the last request under /w/<name>; null for default (it never expires). */
  last_used: z.string().nullable(),
});
export type WorkspaceSummary = z.infer<typeof workspaceSummarySchema>;

/** GET /_sandbox/workspaces */
export const workspacesAnswerSchema = z.object({ workspaces: z.array(workspaceSummarySchema), limit: z.number().int() });
export type WorkspacesAnswer = z.infer<typeof workspacesAnswerSchema>;

/** POST /_sandbox/merchants: the only answer that shows the new merchant's token and secret. */
export const addMerchantAnswerSchema = z.object({ merchant: merchantSchema, workspace: z.string() });
export type AddMerchantAnswer = z.infer<typeof addMerchantAnswerSchema>;

/** POST /_sandbox/merchants/:id/sign */
export const signAnswerSchema = z.object({ signature: z.string(), algorithm: z.string(), merchant: z.string() });
export const signRequestSchema = z.strictObject({ string_to_sign: z.string({ error: 'must be the string to sign' }) });

/** PUT and DELETE /_sandbox/scenarios */
export const scenarioUploadAnswerSchema = z.object({ workspace: z.string(), added: z.array(z.string()).optional(), scenarios: z.array(scenarioSummarySchema) });
export type ScenarioUploadAnswer = z.infer<typeof scenarioUploadAnswerSchema>;
