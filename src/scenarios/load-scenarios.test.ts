import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { it, test } from '../../test/temp-folder.js';
import { transitionTable } from '../lifecycle/transitions.js';
import { BUNDLED_SCENARIOS, loadScenarios, parseScenarioFile, ScenarioError } from './load-scenarios.js';

/** The file's temporary folder: each helper call makes a folder of its own in it. */
let root: string;
test.beforeAll(({ fileFolder }) => {
  root = fileFolder;
});
let folders = 0;

/** A folder holding these files. */
function folder(files: Record<string, string>): string {
  const dir = join(root, `f${++folders}`);
  mkdirSync(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

/** The ScenarioError thrown for one file's text. */
function problemsOf(text: string): ScenarioError {
  const dir = folder({ 'broken.yaml': text });
  try {
    loadScenarios([{ path: dir, bundled: false }]);
  } catch (error) {
    if (error instanceof ScenarioError) return error;
    throw error;
  }
  throw new Error('expected a ScenarioError');
}

const ok = (name: string, extra = '') => `  - name: ${name}\n    description: d\n${extra}`;

describe('loadScenarios', () => {
  it('loads the bundled folder', () => {
    const loaded = loadScenarios([{ path: BUNDLED_SCENARIOS, bundled: true }]);
    expect(loaded.map((l) => l.scenario.name)).toContain('confirm');
    expect(loaded.every((l) => l.bundled)).toBe(true);
  });

  it('parses a bundled file once per process, and again once its text changed', () => {
    const first = loadScenarios([{ path: BUNDLED_SCENARIOS, bundled: true }]);
    const again = loadScenarios([{ path: BUNDLED_SCENARIOS, bundled: true }]);
    expect(again.map((l) => l.scenario)).toEqual(first.map((l) => l.scenario));
    expect(again[0]!.scenario).toBe(first[0]!.scenario); // the same parse, not a new one
    expect(again[0]).not.toBe(first[0]); // each load has its own list and entries
    const dir = folder({ 'a.yaml': `scenarios:\n${ok('before')}` });
    expect(loadScenarios([{ path: dir, bundled: true }]).map((l) => l.scenario.name)).toEqual(['before']);
    writeFileSync(join(dir, 'a.yaml'), `scenarios:\n${ok('after')}`);
    expect(loadScenarios([{ path: dir, bundled: true }]).map((l) => l.scenario.name)).toEqual(['after']);
    writeFileSync(join(dir, 'a.yaml'), 'scenarios: [');
    expect(() => loadScenarios([{ path: dir, bundled: true }])).toThrow(ScenarioError);
  });

  it('reads files in name order, scenarios in file order, sources in the order given', () => {
    const user = folder({
      'b.yaml': `scenarios:\n${ok('b1')}${ok('b2')}`,
      'a.yml': `scenarios:\n${ok('a1')}`,
      'notes.txt': 'not a scenario file',
    });
    const other = folder({ '0.yaml': `scenarios:\n${ok('z1')}` });
    const loaded = loadScenarios([
      { path: user, bundled: false },
      { path: other, bundled: true },
    ]);
    expect(loaded.map((l) => l.scenario.name)).toEqual(['a1', 'b1', 'b2', 'z1']);
    expect(loaded.map((l) => l.line)).toEqual([2, 2, 4, 2]);
    expect(loaded.map((l) => l.bundled)).toEqual([false, false, false, true]);
  });

  it('takes a single file as a source', () => {
    const dir = folder({ 'one.yaml': `scenarios:\n${ok('solo')}` });
    expect(loadScenarios([{ path: join(dir, 'one.yaml'), bundled: false }]).map((l) => l.scenario.name)).toEqual(['solo']);
  });

  it('refuses a missing folder and an empty one', () => {
    expect(() => loadScenarios([{ path: join(root, 'nope'), bundled: false }])).toThrow(/nope.*does not exist; --scenarios takes a folder/);
    expect(() => loadScenarios([{ path: folder({}), bundled: false }])).toThrow(/holds no \.yaml or \.yml files/);
  });

  it('refuses a name used in two files, naming both files and lines', () => {
    const a = folder({ 'first.yaml': `scenarios:\n${ok('other')}${ok('twice')}` });
    const b = folder({ 'second.yaml': `# comment\nscenarios:\n${ok('Twice')}` });
    let error: unknown;
    try {
      loadScenarios([
        { path: a, bundled: false },
        { path: b, bundled: true },
      ]);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ScenarioError);
    const message = (error as Error).message;
    expect(message).toContain(`${join(b, 'second.yaml')}:3:1: scenarios[0].name: repeats the name "Twice" of the scenario at ${join(a, 'first.yaml')}:4`);
  });

  it('refuses a name used twice in one file', () => {
    const error = problemsOf(`scenarios:\n${ok('same')}${ok('same')}`);
    expect(error.problems).toHaveLength(1);
    expect(error.problems[0]).toMatchObject({ line: 4, path: 'scenarios[1].name' });
    expect(error.message).toMatch(/repeats the name "same" of the scenario at .*broken\.yaml:2/);
  });

  it('reports every broken file at once', () => {
    const dir = folder({ 'a.yaml': 'scenarios: 3\n', 'b.yaml': 'scenarios: [\n' });
    expect(() => loadScenarios([{ path: dir, bundled: false }])).toThrow(/a\.yaml:1:12: scenarios: must be a list of scenarios[\s\S]*b\.yaml:2:1: is not valid YAML/);
  });
});

describe('broken files: file, line, field and what is expected', () => {
  const cases: [string, string, { line: number; path: string; message: RegExp }][] = [
    ['YAML syntax', 'scenarios:\n  - name: a\n    description: [unclosed\n', { line: 4, path: '', message: /is not valid YAML/ }],
    ['duplicate key', 'scenarios:\n  - name: a\n    name: b\n    description: d\n', { line: 3, path: '', message: /is not valid YAML: Map keys must be unique/ }],
    ['empty file', '# nothing yet\n', { line: 1, path: '', message: /is empty; it must hold a "scenarios:" list/ }],
    ['not a mapping', '- name: a\n', { line: 1, path: '', message: /must be a mapping with a "scenarios:" list/ }],
    ['unknown top-level field', `scenarios:\n${ok('a')}senarios: []\n`, { line: 4, path: 'senarios', message: /is not a field here; did you mean scenarios\? Fields here: scenarios$/ }],
    [
      'unknown scenario field',
      `scenarios:\n${ok('a', '    matches:\n      order: x\n')}`,
      {
        line: 4,
        path: 'scenarios[0].matches',
        message: /is not a field here; did you mean match\? Fields here: name, description, description_ru, match, respond, delay, answer, timeline, callbacks/,
      },
    ],
    ['missing name', 'scenarios:\n  - description: d\n', { line: 2, path: 'scenarios[0].name', message: /is missing; it must be a string: the scenario name/ }],
    ['bad name', 'scenarios:\n  - name: "has space"\n    description: d\n', { line: 2, path: 'scenarios[0].name', message: /letters, digits/ }],
    [
      'unknown state',
      `scenarios:\n${ok('a', '    timeline:\n      - after: 5s\n        state: paid\n')}`,
      { line: 6, path: 'scenarios[0].timeline[0].state', message: /must be one of created, ecom, confirmed, canceled, expired; got "paid"/ },
    ],
    [
      'bad duration',
      `scenarios:\n${ok('a', '    timeline:\n      - after: soon\n        state: confirmed\n')}`,
      { line: 5, path: 'scenarios[0].timeline[0].after', message: /must be a duration such as "500ms".*got "soon"/ },
    ],
    [
      'impossible timeline',
      `scenarios:\n${ok('a', '    timeline:\n      - after: 5s\n        state: confirmed\n      - after: 10s\n        state: canceled\n')}`,
      { line: 8, path: 'scenarios[0].timeline[1].state', message: /canceled can never apply: timeline\[0\] already made the trade confirmed, a final state/ },
    ],
    [
      'timeline to a start state',
      `scenarios:\n${ok('a', '    timeline:\n      - after: 5s\n        state: created\n')}`,
      { line: 6, path: 'scenarios[0].timeline[0].state', message: /created can never apply: a new trade is created or ecom and can move only to confirmed, canceled, expired/ },
    ],
    [
      'steps out of order',
      `scenarios:\n${ok('a', '    timeline:\n      - after: 10s\n        state: confirmed\n      - after: 5s\n        state: expired\n')}`,
      { line: 7, path: 'scenarios[0].timeline[1].after', message: /is 5s, earlier than the step before it \(10s\)/ },
    ],
    [
      'respond with a timeline',
      `scenarios:\n${ok('a', '    respond: {status: 422, message: no}\n    timeline: [{after: 1s, state: confirmed}]\n')}`,
      { line: 5, path: 'scenarios[0].timeline', message: /cannot be used with respond: a forced 422 stores no trade/ },
    ],
    ['respond status', `scenarios:\n${ok('a', '    respond:\n      status: 500\n      message: boom\n')}`, { line: 5, path: 'scenarios[0].respond.status', message: /must be 401 or 422/ }],
    [
      'respond without message',
      `scenarios:\n${ok('a', '    respond:\n      status: 401\n')}`,
      { line: 4, path: 'scenarios[0].respond.message', message: /is missing; it must be a string: the error message/ },
    ],
    ['delay too long', `scenarios:\n${ok('a', '    delay: 1h\n')}`, { line: 4, path: 'scenarios[0].delay', message: /must be at most 5m/ }],
    [
      'bad order regex',
      `scenarios:\n${ok('a', '    match:\n      order: "^(confirm"\n')}`,
      { line: 5, path: 'scenarios[0].match.order', message: /^"\^\(confirm" cannot be matched: missing closing \)/ },
    ],
    [
      'order regex RE2 cannot match (lookahead)',
      `scenarios:\n${ok('a', '    match:\n      order: "^(?!test-)"\n')}`,
      { line: 5, path: 'scenarios[0].match.order', message: /^"\^\(\?!test-\)" cannot be matched: invalid or unsupported Perl syntax: `\(\?!`.*RE2 has no lookahead.*docs\/scenarios\.md/ },
    ],
    [
      'order regex too large',
      `scenarios:\n${ok('a', '    match:\n      order: "^[a-z]{800}x{300}"\n')}`,
      { line: 5, path: 'scenarios[0].match.order', message: /^"\^\[a-z\]\{800\}x\{300\}" cannot be matched: it is too large to match safely: about 1103 RE2 instructions, at most 1000/ },
    ],
    [
      'regexes too large together',
      `scenarios:\n${[1, 2, 3, 4, 5].map((i) => ok(`s${i}`, '    match:\n      order: "^[a-z]{900}"\n')).join('')}`,
      { line: 1, path: 'scenarios', message: /^holds regular expressions of about 4510 RE2 instructions in all; one file or upload may hold at most 4000/ },
    ],
    ['empty match', `scenarios:\n${ok('a', '    match: {}\n')}`, { line: 4, path: 'scenarios[0].match', message: /must hold at least one of type, merchant, amount, order, customer/ }],
    ['null match', `scenarios:\n${ok('a', '    match:\n')}`, { line: 4, path: 'scenarios[0].match', message: /must be a mapping of conditions/ }],
    [
      'bad type in a list',
      `scenarios:\n${ok('a', '    match:\n      type: [ecom, card]\n')}`,
      { line: 5, path: 'scenarios[0].match.type[1]', message: /must be one of any_bank, nspk, ecom; got "card"/ },
    ],
    [
      'amount as a string',
      `scenarios:\n${ok('a', '    match:\n      amount: "13.13"\n')}`,
      { line: 5, path: 'scenarios[0].match.amount', message: /must be an amount in kopecks \(e\.g\. 1313\), a range/ },
    ],
    ['amount range field', `scenarios:\n${ok('a', '    match:\n      amount:\n        min: 1.5\n')}`, { line: 6, path: 'scenarios[0].match.amount.min', message: /must be a whole number of kopecks/ }],
    [
      'amount range upside down',
      `scenarios:\n${ok('a', '    match:\n      amount: {min: 500, max: 100}\n')}`,
      { line: 5, path: 'scenarios[0].match.amount.min', message: /must not be larger than max \(500 > 100\)/ },
    ],
    [
      'last digits unquoted',
      `scenarios:\n${ok('a', '    match:\n      amount: {last_digits: 13}\n')}`,
      { line: 5, path: 'scenarios[0].match.amount.last_digits', message: /must be digits in quotes/ },
    ],
    [
      'last digits and a range',
      `scenarios:\n${ok('a', '    match:\n      amount: {last_digits: "13", max: 100}\n')}`,
      { line: 5, path: 'scenarios[0].match.amount', message: /use either last_digits or min\/max/ },
    ],
    [
      'unknown amount field',
      `scenarios:\n${ok('a', '    match:\n      amount:\n        mini: 5\n')}`,
      { line: 6, path: 'scenarios[0].match.amount.mini', message: /is not a field here; did you mean min\? Fields here: min, max, last_digits/ },
    ],
    ['bad merchant', `scenarios:\n${ok('a', '    match:\n      merchant: demo\n')}`, { line: 5, path: 'scenarios[0].match.merchant', message: /must be a merchant UUID/ }],
    [
      'customer regex',
      `scenarios:\n${ok('a', '    match:\n      customer: {regex: "["}\n')}`,
      { line: 5, path: 'scenarios[0].match.customer.regex', message: /^"\[" cannot be matched: missing closing \]/ },
    ],
    ['callbacks field', `scenarios:\n${ok('a', '    callbacks:\n      fail_first: many\n')}`, { line: 5, path: 'scenarios[0].callbacks.fail_first', message: /number/ }],
    ['an unknown key far from every field', `scenarios:\n${ok('a', '    colour: blue\n')}`, { line: 4, path: 'scenarios[0].colour', message: /^is not a field here\. Fields here: name, description/ }],
    [
      'yes for a boolean',
      `scenarios:\n${ok('a', '    callbacks:\n      duplicate: yes\n')}`,
      { line: 5, path: 'scenarios[0].callbacks.duplicate', message: /must be true or false\. Hint: yes is read as the string "yes" \(YAML 1\.2 has only true and false as booleans\); write true$/ },
    ],
    [
      'Off for a boolean',
      `scenarios:\n${ok('a', '    callbacks:\n      bad_signature: Off\n')}`,
      { line: 5, path: 'scenarios[0].callbacks.bad_signature', message: /Hint: Off is read as the string "Off" .*; write false$/ },
    ],
    [
      'a quoted "no" is a string on purpose: no hint',
      `scenarios:\n${ok('a', '    callbacks:\n      duplicate: "no"\n')}`,
      { line: 5, path: 'scenarios[0].callbacks.duplicate', message: /^must be true or false$/ },
    ],
  ];

  it.each(cases)('%s', (_label, text, expected) => {
    const error = problemsOf(text);
    const problem = error.problems.find((p) => p.path === expected.path);
    expect(problem, error.message).toBeDefined();
    expect(problem?.file).toMatch(/broken\.yaml$/);
    expect(problem?.line).toBe(expected.line);
    expect(problem?.path).toBe(expected.path);
    expect(problem?.message).toMatch(expected.message);
    // The thrown message carries all of it: file:line:column, the field path, the message.
    expect(error.message).toMatch(new RegExp(`broken\\.yaml:${expected.line}:\\d+: ${expected.path.replace(/[[\].]/g, '\\$&')}`));
  });
});

describe('parseScenarioFile', () => {
  it('outputs durations in milliseconds and keeps the match block as written', () => {
    const parsed = parseScenarioFile(
      `scenarios:\n  - name: x\n    description: d\n    match: {type: [ecom], amount: {last_digits: "07"}}\n    delay: 1.5s\n    timeline: [{after: 2m, state: expired}]\n    callbacks: {delay: 10s, fail_first: 1}\n`,
      'x.yaml',
    );
    if (!parsed.ok) throw new Error(parsed.problems.map((p) => p.message).join('; '));
    expect(parsed.scenarios[0]?.scenario).toEqual({
      name: 'x',
      description: 'd',
      match: { type: ['ecom'], amount: { last_digits: '07' } },
      delay: 1500,
      timeline: [{ after: 120_000, state: 'expired' }],
      callbacks: { delay: 10_000, fail_first: 1 },
    });
  });
});

describe('YAML aliases', () => {
  it('a file whose aliases multiply (billion laughs) is refused with a problem, not expanded', () => {
    const levels = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (let i = 1; i < 9; i++) {
      const name = String.fromCharCode(97 + i);
      const previous = String.fromCharCode(96 + i);
      levels.push(`${name}: &${name} [${Array(9).fill(`*${previous}`).join(',')}]`);
    }
    const text = `${levels.join('\n')}\nscenarios:\n  - name: laughs\n    description: *i\n`;
    const parsed = parseScenarioFile(text, 'laughs.yaml');
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.problems).toEqual([
      { file: 'laughs.yaml', line: 1, column: 1, path: '', message: expect.stringMatching(/^expands YAML aliases \(\*name\) more than 100 times in all; .*billion laughs/) },
    ]);
  });

  it('a few aliases, such as a shared timeline, are expanded as before', () => {
    const text = `scenarios:\n  - name: a\n    description: d\n    match: {order: "^a-"}\n    timeline: &steps [{after: 5s, state: confirmed}]\n  - name: b\n    description: d\n    match: {order: "^b-"}\n    timeline: *steps\n`;
    const parsed = parseScenarioFile(text, 'shared.yaml');
    expect(parsed.ok && parsed.scenarios.map(({ scenario }) => scenario.timeline)).toEqual([[{ after: 5000, state: 'confirmed' }], [{ after: 5000, state: 'confirmed' }]]);
  });
});

describe('a provider profile with intermediate states', () => {
  const timeline = (...steps: string[]) => `scenarios:\n${ok('a', `    timeline:\n${steps.map((state, i) => `      - after: ${i + 1}s\n        state: ${state}\n`).join('')}`)}`;
  const table = transitionTable(['processing', 'review']);

  it('lets a timeline name its states, in its order; a confirmation may skip them', () => {
    const parsed = parseScenarioFile(timeline('processing', 'review', 'confirmed'), 'flow.yaml', table);
    expect(parsed.ok && parsed.scenarios[0]?.scenario.timeline?.map((step) => step.state)).toEqual(['processing', 'review', 'confirmed']);
    expect(parseScenarioFile(timeline('review', 'expired'), 'flow.yaml', table).ok).toBe(true);
    expect(parseScenarioFile(timeline('confirmed'), 'flow.yaml', table).ok).toBe(true);
  });

  it('refuses a state the profile lacks, listing its states, and a step back', () => {
    const unknown = parseScenarioFile(timeline('processing'), 'flow.yaml');
    expect(!unknown.ok && unknown.problems[0]).toMatchObject({
      line: 6,
      path: 'scenarios[0].timeline[0].state',
      message: 'must be one of created, ecom, confirmed, canceled, expired; got "processing"',
    });
    const back = parseScenarioFile(timeline('review', 'processing'), 'flow.yaml', table);
    expect(!back.ok && back.problems[0]).toMatchObject({
      path: 'scenarios[0].timeline[1].state',
      message: 'processing can never apply after review; a review trade can move only to confirmed, canceled, expired',
    });
  });

  it('a folder is checked against the table it is loaded with', () => {
    const dir = folder({ 'flow.yaml': timeline('processing', 'confirmed') });
    expect(loadScenarios([{ path: dir, bundled: false }], table).map((entry) => entry.scenario.name)).toEqual(['a']);
    expect(() => loadScenarios([{ path: dir, bundled: false }])).toThrow(/must be one of created, ecom, confirmed, canceled, expired; got "processing"/);
  });
});
