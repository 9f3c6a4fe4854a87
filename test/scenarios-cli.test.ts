import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect } from 'vitest';
import { it, test } from './temp-folder.js';
import type { ScenarioSummary } from '../src/scenarios/describe-scenario.js';

// Runs the built CLI (npm test builds first), as a user would.
const BIN = fileURLToPath(new URL('../bin/deposit-sandbox.js', import.meta.url));
/** The file's temporary folder (the fixture removes it after the file's tests). */
let root: string;
test.beforeAll(({ fileFolder }) => {
  root = fileFolder;
});

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve) => {
    // A bound for a hang, under the test's own (a CLI run has taken over a minute on a loaded machine).
    execFile(process.execPath, [BIN, ...args], { cwd: root, env: { ...process.env, ...env }, timeout: 170_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr: error?.killed ? `${stderr}\n(killed: still running after 170 s)` : stderr });
    });
  });
}

let folders = 0;
function folder(files: Record<string, string>): string {
  const dir = join(root, `f${++folders}`);
  mkdirSync(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

const BROKEN = 'scenarios:\n  - name: oops\n    description: d\n    timeline:\n      - after: 5s\n        state: paid\n';

describe('deposit-sandbox scenarios', () => {
  it('lists the bundled scenarios with their magic values', async () => {
    const { code, stdout, stderr } = await run(['scenarios']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toMatch(/^13 scenarios, in match order \(first match wins\):/);
    expect(stdout).toContain('scenarios/10-outcomes.yaml (bundled)');
    expect(stdout).toMatch(/ {2}confirm +order starting with "sbx-confirm-" +confirmed after 5s\n/);
    expect(stdout).toMatch(/ {2}reject +order starting with "sbx-reject-" +create answers 422 trade_rejected/);
    expect(stdout).toContain('X-Sandbox-Scenario: <name>');
  });

  it('--json prints the summaries GET /_sandbox/scenarios returns', async () => {
    const { code, stdout } = await run(['scenarios', '--json']);
    expect(code).toBe(0);
    const { scenarios } = JSON.parse(stdout) as { scenarios: ScenarioSummary[] };
    expect(scenarios.map((s) => s.name)).toEqual([
      'confirm',
      'cancel',
      'expire',
      'reject',
      'unauthorized',
      'slow',
      'lost-answer',
      'late-answer',
      'unavailable',
      'flaky-callbacks',
      'duplicate-callback',
      'bad-signature-callback',
      'overlapping-callbacks',
    ]);
    expect(scenarios[0]).toMatchObject({ source: 'scenarios/10-outcomes.yaml', bundled: true, magic: 'order starting with "sbx-confirm-"', does: 'confirmed after 5s' });
  });

  it('--scenarios puts the folder first; the env variable works too', async () => {
    const dir = folder({
      'mine.yaml': 'scenarios:\n  - name: vip\n    description: VIP customers pay at once.\n    match: {customer: {regex: "^vip-"}}\n    timeline: [{after: 0, state: confirmed}]\n',
    });
    const flag = await run(['scenarios', '--scenarios', dir, '--json']);
    expect(flag.code).toBe(0);
    const list = (JSON.parse(flag.stdout) as { scenarios: ScenarioSummary[] }).scenarios;
    expect(list[0]).toMatchObject({ name: 'vip', source: `f${folders}/mine.yaml`, bundled: false, magic: 'customer matching /^vip-/' });
    expect(list).toHaveLength(14);

    const env = await run(['scenarios'], { DEPOSIT_SANDBOX_SCENARIOS: dir });
    expect(env.code).toBe(0);
    expect(env.stdout).toMatch(/^14 scenarios/);
    expect(env.stdout).toMatch(/ {2}vip +customer matching \/\^vip-\/ +confirmed after 0ms/);
  });

  it('exits 1 with file, line and field when a file is broken', async () => {
    const dir = folder({ 'broken.yaml': BROKEN });
    const { code, stdout, stderr } = await run(['scenarios', '--scenarios', dir]);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toContain(
      `deposit-sandbox: Invalid scenario file (1 problem):\n  ${join(dir, 'broken.yaml')}:6:16: scenarios[0].timeline[0].state: must be one of created, ecom, confirmed, canceled, expired; got "paid"`,
    );
  });

  it('exits 1 for a folder that does not exist', async () => {
    const { code, stderr } = await run(['scenarios', '--scenarios', 'missing-folder']);
    expect(code).toBe(1);
    expect(stderr).toContain(`${join(root, 'missing-folder')}: does not exist`);
  });
});

describe('deposit-sandbox serve --scenarios', () => {
  it('refuses to start with a broken file', async () => {
    const dir = folder({ 'broken.yaml': BROKEN });
    const { code, stdout, stderr } = await run(['--port', '0', '--in-memory', '--scenarios', dir]);
    expect(code).toBe(1);
    expect(stdout).not.toContain('listening');
    expect(stderr).toContain(`${join(dir, 'broken.yaml')}:6:16: scenarios[0].timeline[0].state`);
  });
});
