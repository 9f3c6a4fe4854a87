import { z } from 'zod';

/** A step the sandbox will run at a sandbox time: a timeline move or a callback attempt. */
export const jobSchema = z.object({
  id: z.string(),
  /** Sandbox time (ms since epoch) at which the job falls due. */
  due: z.number(),
  /** Tie-breaker: jobs due at the same time run in the order they were scheduled. */
  seq: z.number().int(),
  kind: z.string(),
  /** The trade the job belongs to; jobs of one trade never run concurrently. */
  trade: z.string().optional(),
  data: z.record(z.string(), z.unknown()),
});
export type Job = z.infer<typeof jobSchema>;

export function compareJobs(a: Job, b: Job): number {
  return a.due - b.due || a.seq - b.seq;
}
