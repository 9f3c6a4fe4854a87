import { z } from 'zod';

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
