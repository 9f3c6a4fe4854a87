import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { describeIssues, formatPath, lineAndColumn } from './issues.js';

describe('formatPath', () => {
  it('writes dotted paths with array indexes', () => {
    expect(formatPath(['merchants', 0, 'id'])).toBe('merchants[0].id');
    expect(formatPath([])).toBe('');
    expect(formatPath([0, 'a'])).toBe('[0].a');
  });
});

describe('describeIssues', () => {
  it('gives one line per issue, (root) for the top level', () => {
    const error = z.object({ a: z.string() }).safeParse(5).error!;
    expect(describeIssues(error)).toEqual([expect.stringMatching(/^\(root\): /)]);
    const nested = z.object({ a: z.array(z.number()) }).safeParse({ a: ['x'] }).error!;
    expect(describeIssues(nested)[0]).toMatch(/^a\[0\]: /);
  });
});

describe('lineAndColumn', () => {
  it('is 1-based', () => {
    expect(lineAndColumn('ab\ncd', 0)).toEqual({ line: 1, column: 1 });
    expect(lineAndColumn('ab\ncd', 4)).toEqual({ line: 2, column: 2 });
  });
});
