import ms from 'ms';
import { parseRussianDuration, RUSSIAN_UNITS_HINT } from './russian-units.js';

/**
 * Parses a duration such as "10m", "1.5s", "2 minutes", "250ms" (the `ms` package's
 * format), the same with a Russian unit ("10м", "10 мин", "2 ч", "1 д": russian-units.ts)
 * or a number of milliseconds. Returns undefined when it is not one.
 */
export function parseDuration(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? value : undefined;
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  const text = value.trim();
  // The `ms` package reads at most 100 characters; the Russian units keep the same bound.
  const parsed = ms(text as ms.StringValue) ?? (text.length <= 100 ? parseRussianDuration(text) : undefined);
  return typeof parsed === 'number' && Number.isFinite(parsed) && parsed >= 0 ? parsed : undefined;
}

export const DURATION_HINT = 'a duration such as "500ms", "10s", "5m", "2h", "1d", or a number of milliseconds';

/** Every unit a duration may have, for a message about a unit that is not one. */
export const DURATION_UNITS_HINT = `the units are ms, s, m, h, d, w, y (also msec, sec, min, hour, day, week, year and their plurals, hr, yr, in any case) or in Russian ${RUSSIAN_UNITS_HINT}`;

/** Whether `value` is a number with a word that is no unit ("10 лет", "10x"; not "soon"), which a message answers with every unit there is. */
export const hasUnknownUnit = (value: unknown): boolean => typeof value === 'string' && /^-?[0-9]*\.?[0-9]+ *\p{L}+$/u.test(value.trim()) && parseDuration(value) === undefined;

/** Why `value` is not a duration: DURATION_HINT and what was given, and every unit when its unit is none. */
export function durationProblem(value: unknown): string {
  return `must be ${DURATION_HINT}; got ${JSON.stringify(value)}${hasUnknownUnit(value) ? `: ${DURATION_UNITS_HINT}` : ''}`;
}

/** The furthest one clock advance may move the clock (POST /_sandbox/clock/advance, the dashboard's clock field): 10 years of 365 days (3650d), which keeps dates valid. */
export const ADVANCE_LIMIT_MS = 3650 * 24 * 3600 * 1000;

/** 90000 → "1m 30s", for messages and pages. */
export function formatDuration(milliseconds: number): string {
  return ms(milliseconds, { long: false });
}
