import ms from 'ms';
import { z } from 'zod';

/**
 * Parses a duration such as "10m", "1.5s", "2 minutes", "250ms" (the `ms` package's
 * format) or a number of milliseconds. Returns undefined when it is not one.
 */
export function parseDuration(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? value : undefined;
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  const parsed = ms(value.trim() as ms.StringValue);
  return typeof parsed === 'number' && Number.isFinite(parsed) && parsed >= 0 ? parsed : undefined;
}

export const DURATION_HINT = 'a duration such as "500ms", "10s", "5m", "2h", "1d", or a number of milliseconds';

/** A zod schema for a duration; outputs milliseconds. */
export const durationSchema = z.union([z.string(), z.number()], { error: `must be ${DURATION_HINT}` }).transform((value, ctx) => {
  const parsed = parseDuration(value);
  if (parsed === undefined) {
    ctx.addIssue({ code: 'custom', message: `must be ${DURATION_HINT}; got ${JSON.stringify(value)}` });
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

/** 90000 → "1m 30s", for messages and pages. */
export function formatDuration(milliseconds: number): string {
  return ms(milliseconds, { long: false });
}
