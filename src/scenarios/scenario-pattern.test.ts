import { RE2JS } from 're2js';
import { describe, expect, it } from 'vitest';
import { compilePattern, MAX_PATTERN_SIZE, patternSize } from './scenario-pattern.js';

describe('compilePattern (RE2)', () => {
  it('matches a pattern that makes a backtracking engine take exponential time, at once', () => {
    // JavaScript's RegExp takes about 2^30 steps here (minutes); RE2 one pass over the text.
    const pattern = compilePattern('^(a+)+$');
    expect(pattern.test(`${'a'.repeat(30)}!`)).toBe(false);
    expect(pattern.test('a'.repeat(100_000))).toBe(true);
  });

  it('takes what scenario files use, and JavaScript spellings of escapes and named groups', () => {
    expect(compilePattern('^sbx-confirm-').test('sbx-confirm-1')).toBe(true);
    expect(compilePattern('^sbx-confirm-').test('x-sbx-confirm-1')).toBe(false);
    expect(compilePattern('@vip\\.example$').test('anna@vip.example')).toBe(true);
    expect(compilePattern('^\\d{4}-[A-Z]{2}\\b').test('2026-RU x')).toBe(true);
    expect(compilePattern('^\\u0041').test('A')).toBe(true);
    expect(compilePattern('^(?<year>\\d{4})$').test('2026')).toBe(true);
    expect(compilePattern('').test('anything')).toBe(true);
    expect(compilePattern('^(?i)vip').test('VIP-1')).toBe(true);
  });

  it('refuses what RE2 cannot match in linear time, saying what and why', () => {
    expect(() => compilePattern('^(?=vip)')).toThrow(/unsupported Perl syntax: `\(\?=`.*RE2 has no lookahead/);
    expect(() => compilePattern('(?<!x)y')).toThrow(/lookbehind/);
    expect(() => compilePattern('(a)\\1')).toThrow(/invalid escape sequence: `\\1`.*backreferences/);
    expect(() => compilePattern('(')).toThrow(/missing closing \)/);
  });

  it('refuses a pattern too large to match quickly before compiling it', () => {
    expect(() => compilePattern('\\w{1000}'.repeat(50))).toThrow(new RegExp(`too large to match safely: about 50050 RE2 instructions, at most ${MAX_PATTERN_SIZE}`));
    expect(() => compilePattern(`^${'x'.repeat(MAX_PATTERN_SIZE - 3)}`)).not.toThrow();
  });

  it('estimates at least the size RE2 compiles a pattern to', () => {
    const patterns = [
      '^sbx-confirm-',
      '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$',
      '(?:ab|cd){100}',
      '((a{10}){10}|b{3,})+c?',
      'x{2,200}',
      '[\\]a-z[:alpha:]]{30}\\Q{1000}\\E',
      '(?P<n>\\p{Greek}{20})|\\x{1F600}{5}',
      '^(a+)+$',
      '(?i:vip){50}',
    ];
    for (const source of patterns) expect(patternSize(source), source).toBeGreaterThanOrEqual(RE2JS.compile(source).programSize() - 2);
  });
});
