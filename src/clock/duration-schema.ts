import { z } from 'zod';
import { DURATION_HINT, durationProblem, parseDuration } from './duration.js';

// The zod schemas of durations, for the options, the scenarios and the admin routes; apart from
// duration.ts so that the CLI's client commands, which parse and print durations, do not load zod.

/** A zod schema for a duration; outputs milliseconds. */
export const durationSchema = z.union([z.string(), z.number()], { error: `must be ${DURATION_HINT}` }).transform((value, ctx) => {
  const parsed = parseDuration(value);
  if (parsed === undefined) {
    ctx.addIssue({ code: 'custom', message: durationProblem(value) });
    return z.NEVER;
  }
  return parsed;
});

/** "1s,5s,30s" → [1000, 5000, 30000] */
export const durationListSchema = z
  .union([z.string(), z.array(z.union([z.string(), z.number()]))], { error: `must be a comma-separated list of durations, e.g. "1s,5s,30s,2m,10m"` })
  .transform((value, ctx) => {
    const items =
      typeof value === 'string'
        ? value
            .split(',')
            .map((item) => item.trim())
            .filter(Boolean)
        : value;
    const out: number[] = [];
    for (const item of items) {
      const parsed = parseDuration(item);
      if (parsed === undefined) {
        ctx.addIssue({ code: 'custom', message: `${JSON.stringify(item)} is not ${DURATION_HINT}` });
        return z.NEVER;
      }
      out.push(parsed);
    }
    return out;
  });
