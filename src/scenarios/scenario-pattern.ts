import { RE2JS } from 're2js';

/**
 * The regular expressions of scenarios (`match.order`, `match.customer.regex`) are matched with
 * RE2 (the `re2js` package, plain JavaScript): time linear in the length of the text, whatever
 * the pattern, so a pattern uploaded by one workspace cannot stall the others the way a
 * backtracking pattern such as `^(a+)+$` stalls JavaScript's RegExp.
 */
export interface ScenarioPattern {
  test(text: string): boolean;
}

/**
 * The largest pattern, in RE2 instructions (about one per character, class or group; a counted
 * repetition `x{n}` repeats what it follows n times). Compiling and matching cost grows with it,
 * so a pattern is refused before it is compiled when its estimate is larger.
 */
export const MAX_PATTERN_SIZE = 1_000;

/**
 * The largest sum of the pattern sizes of one scenario file or one upload. Matching costs at
 * most about (text length) x (pattern size) steps, so this bounds what one create request
 * can cost however its workspace's patterns are written.
 */
export const MAX_PATTERNS_SIZE = 4_000;

const UNSUPPORTED = 'RE2 has no lookahead (?= (?!, lookbehind (?<= (?<! or backreferences \\1';

/**
 * Compiles a pattern written as for JavaScript's RegExp (`\u0041`, `(?<name>...)` and `[^]`
 * are translated) for RE2. Throws an Error saying what is wrong when RE2 cannot take it or it
 * is larger than MAX_PATTERN_SIZE.
 */
export function compilePattern(source: string): ScenarioPattern {
  const problem = sizeProblem(patternSize(source));
  if (problem) throw new Error(problem);
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(RE2JS.translateRegExp(source));
  } catch (error) {
    const reason = (error as Error).message.replace(/^error parsing regexp: /, '');
    throw new Error(`${reason}${/Perl syntax|named capture|escape sequence/.test(reason) ? ` (${UNSUPPORTED})` : ''}`);
  }
  const size = sizeProblem(compiled.programSize());
  if (size) throw new Error(size);
  return compiled;
}

/** Why a pattern of `size` RE2 instructions (patternSize) is too large, or undefined. */
export function sizeProblem(size: number): string | undefined {
  if (size <= MAX_PATTERN_SIZE) return undefined;
  return `it is too large to match safely: about ${size} RE2 instructions, at most ${MAX_PATTERN_SIZE} (a counted repetition such as {500} repeats what it follows; use + or * or a smaller count)`;
}

/**
 * An upper bound of the RE2 instructions `source` compiles to, found without compiling it
 * (compiling costs time in proportion to the result, so a huge pattern is refused first):
 * every character, escape or class counts 1, a group its content plus 2, and a counted
 * repetition `{n,m}` multiplies what it follows by 2m - n (`{n}` by n, `{n,}` by n + 2).
 */
export function patternSize(source: string): number {
  const groups: Array<{ total: number; last: number }> = [{ total: 0, last: 0 }];
  const top = () => groups[groups.length - 1] as { total: number; last: number };
  const atom = (weight: number) => {
    top().total += weight;
    top().last = weight;
  };
  let i = 0;
  while (i < source.length) {
    const char = source[i];
    if (char === '\\') {
      const next = source[i + 1];
      if (next === 'Q') {
        const end = source.indexOf('\\E', i + 2);
        const stop = end === -1 ? source.length : end;
        top().total += stop - (i + 2);
        top().last = 1;
        i = end === -1 ? source.length : end + 2;
        continue;
      }
      const braced = (next === 'x' || next === 'p' || next === 'P' || next === 'u') && source[i + 2] === '{';
      i = braced ? source.indexOf('}', i) + 1 || source.length : i + 2;
      atom(1);
    } else if (char === '[') {
      let j = i + 1;
      if (source[j] === '^') j++;
      if (source[j] === ']') j++;
      while (j < source.length && source[j] !== ']') {
        if (source[j] === '\\') j += 2;
        else if (source.startsWith('[:', j)) j = source.indexOf(':]', j) + 2 || source.length;
        else j++;
      }
      i = j + 1;
      atom(1);
    } else if (char === '(') {
      i++;
      if (source[i] === '?') {
        // (?flags) sets flags and holds nothing; (?flags:...), (?P<name>...), (?<name>...) and (?=...) hold a group.
        const flagsOnly = /^\?[a-zA-Z-]*\)/.exec(source.slice(i, i + 12));
        if (flagsOnly) {
          i += flagsOnly[0].length;
          continue;
        }
      }
      groups.push({ total: 0, last: 0 });
    } else if (char === ')') {
      const inner = groups.length > 1 ? (groups.pop() as { total: number }) : { total: 0 };
      atom(inner.total + 2);
      i++;
    } else if (char === '{') {
      const counted = /^\{(\d+)(,(\d*))?\}/.exec(source.slice(i, i + 24));
      if (counted) {
        const min = Number(counted[1]);
        const max = counted[2] === undefined ? min : counted[3] === '' ? min + 1 : Number(counted[3]);
        // x{n,m} compiles to n copies of x and m - n optional ones, each optional one twice the size.
        const times = Math.max(max + Math.max(max - min, 0), min, 1);
        const group = top();
        group.total += group.last * (times - 1) + 1;
        group.last *= times;
        i += counted[0].length;
      } else {
        atom(1);
        i++;
      }
    } else if (char === '|' || char === '*' || char === '+' || char === '?') {
      top().total += 1;
      if (char === '|') top().last = 0;
      i++;
    } else {
      atom(1);
      i++;
    }
  }
  return groups.reduce((sum, group) => sum + group.total, 0);
}
