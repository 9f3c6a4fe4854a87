import { describe, expect, it } from 'vitest';
import { formatDuration, parseDuration } from './duration.js';
import { durationListSchema, durationSchema } from './duration-schema.js';

describe('parseDuration', () => {
  it.each([
    ['500ms', 500],
    ['10s', 10_000],
    ['1.5s', 1_500],
    ['5m', 300_000],
    ['2 minutes', 120_000],
    ['2h', 7_200_000],
    ['1d', 86_400_000],
    [' 10s ', 10_000],
    ['250', 250],
    [0, 0],
    [1500, 1500],
  ])('%j is %d ms', (input, expected) => {
    expect(parseDuration(input)).toBe(expected);
  });

  it.each([['soon'], [''], ['-5s'], [-1], [Number.NaN], [Number.POSITIVE_INFINITY], [null], [{}]])('%j is not a duration', (input) => {
    expect(parseDuration(input)).toBeUndefined();
  });
});

describe('durationSchema', () => {
  it('outputs milliseconds, and explains a bad value with examples', () => {
    expect(durationSchema.parse('10m')).toBe(600_000);
    const result = durationSchema.safeParse('ten minutes');
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toContain('must be a duration such as "500ms", "10s"');
    expect(result.error?.issues[0]?.message).toContain('got "ten minutes"');
    expect(durationSchema.safeParse(true).error?.issues[0]?.message).toContain('must be a duration');
  });
});

describe('durationListSchema', () => {
  it('parses a comma-separated string or an array', () => {
    expect(durationListSchema.parse('1s, 5s,30s,,2m')).toEqual([1_000, 5_000, 30_000, 120_000]);
    expect(durationListSchema.parse(['1s', 250])).toEqual([1_000, 250]);
  });

  it('names the item that is not a duration', () => {
    const result = durationListSchema.safeParse('1s,later');
    expect(result.error?.issues[0]?.message).toContain('"later" is not a duration');
  });
});

describe('formatDuration', () => {
  it('writes short forms', () => {
    expect(formatDuration(500)).toBe('500ms');
    expect(formatDuration(10_000)).toBe('10s');
    expect(formatDuration(600_000)).toBe('10m');
  });
});
