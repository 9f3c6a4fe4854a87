import { describe, expect, it } from 'vitest';
import { formatDuration, parseDuration } from './duration.js';
import { durationListSchema, durationSchema } from './duration-schema.js';
import { formatRussianDuration } from './russian-units.js';

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
    ['10м', 600_000],
    ['10 мин', 600_000],
    ['10 минут', 600_000],
    ['1 минута', 60_000],
    ['2 ч', 7_200_000],
    ['2 часа', 7_200_000],
    ['5 часов', 18_000_000],
    ['1 час', 3_600_000],
    ['1 д', 86_400_000],
    ['3 дн', 259_200_000],
    ['1 день', 86_400_000],
    ['2 дня', 172_800_000],
    ['5 дней', 432_000_000],
    ['30с', 30_000],
    ['30 сек', 30_000],
    ['30 секунд', 30_000],
    ['250 мс', 250],
    ['1.5 ч', 5_400_000],
    [' 10 МИН ', 600_000],
  ])('%j is %d ms', (input, expected) => {
    expect(parseDuration(input)).toBe(expected);
  });

  it.each([['soon'], [''], ['-5s'], [-1], [Number.NaN], [Number.POSITIVE_INFINITY], [null], [{}], ['10 лет'], ['-5 мин'], ['мин'], ['10 м с'], ['10\u00a0мин'], [`${'1'.repeat(99)}мс`]])(
    '%j is not a duration',
    (input) => {
      expect(parseDuration(input)).toBeUndefined();
    },
  );
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

  it('takes Russian units, and lists every unit when a number has a word that is none', () => {
    expect(durationSchema.parse('10 мин')).toBe(600_000);
    expect(durationSchema.safeParse('10 лет').error?.issues[0]?.message).toBe(
      'must be a duration such as "500ms", "10s", "5m", "2h", "1d", or a number of milliseconds; got "10 лет": the units are ms, s, m, h, d, w, y (also msec, sec, min, hour, day, week, year and their plurals, hr, yr, in any case) or in Russian мс, с (сек, секунд), м (мин, минут), ч (час, часа, часов), д (дн, день, дня, дней)',
    );
    expect(durationSchema.safeParse('10x').error?.issues[0]?.message).toContain('got "10x": the units are ms, s, m');
    // What is not a number with a word keeps its message as it was.
    expect(durationSchema.safeParse('soon').error?.issues[0]?.message).toBe('must be a duration such as "500ms", "10s", "5m", "2h", "1d", or a number of milliseconds; got "soon"');
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

describe('formatRussianDuration', () => {
  it('writes the largest whole Russian unit', () => {
    expect([500, 1_500, 30_000, 600_000, 5_400_000, 7_200_000, 86_400_000].map(formatRussianDuration)).toEqual(['500 мс', '1,5 с', '30 с', '10 мин', '90 мин', '2 ч', '1 д']);
  });
});

describe('formatDuration', () => {
  it('writes short forms', () => {
    expect(formatDuration(500)).toBe('500ms');
    expect(formatDuration(10_000)).toBe('10s');
    expect(formatDuration(600_000)).toBe('10m');
  });
});
