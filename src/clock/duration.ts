import ms from 'ms';

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

/** 90000 → "1m 30s", for messages and pages. */
export function formatDuration(milliseconds: number): string {
  return ms(milliseconds, { long: false });
}
