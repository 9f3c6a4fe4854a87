/**
 * Scenarios written to hurt: patterns that a backtracking engine takes exponential time over,
 * uploaded to one workspace or put in the --scenarios folder, must not stall the others.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect } from 'vitest';
import { it } from './temp-folder.js';
import { DEMO, errorOf, makeSandbox, p2pBody } from './support.js';

let worker: Worker | undefined;
afterEach(async () => {
  await worker?.terminate();
  worker = undefined;
});

/** startSandbox(options) in a worker thread; resolves with its URL. */
function sandboxInThread(options: Record<string, unknown>): Promise<string> {
  worker = new Worker(new URL('./sandbox-thread.mjs', import.meta.url), { workerData: options });
  const started = worker;
  return new Promise((resolve, reject) => {
    started.once('message', resolve);
    started.once('error', reject);
  });
}

const scenarioFile = (name: string, match: string) =>
  `scenarios:\n  - name: ${name}\n    description: A pattern that backtracks exponentially.\n    match:\n      ${match}\n    timeline:\n      - after: 1s\n        state: confirmed\n`;

const create = (url: string, body: Record<string, unknown>) =>
  fetch(`${url}/api/v1/trades/deposit/create`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Auth': DEMO.token }, body: JSON.stringify(body) });

describe('a regex that backtracks exponentially', () => {
  // JavaScript's RegExp takes about 2^30 steps over this text (minutes on this machine, with the
  // sandbox's thread blocked meanwhile); RE2 one pass. Were the thread blocked, the health request
  // would never be answered and the test would fail at its timeout.
  const evil = `${'a'.repeat(30)}!`;

  it('uploaded to one workspace, or in the --scenarios folder: the creates finish and another workspace answers', async ({ folder }) => {
    writeFileSync(join(folder, 'evil.yaml'), scenarioFile('evil-customer', 'customer: {regex: "^(a+)+$"}'));
    const url = await sandboxInThread({ scenarios: folder });

    const put = await fetch(`${url}/w/w1/_sandbox/scenarios`, { method: 'PUT', body: scenarioFile('evil-order', 'order: "^(a+)+$"') });
    expect(put.status).toBe(200);

    const creates = [create(`${url}/w/w1`, p2pBody({ order: evil })), create(`${url}/w/w2`, p2pBody({ customer: evil }))];
    const health = await fetch(`${url}/w/w3/_sandbox/health`);
    expect(health.status).toBe(200);
    const answers = await Promise.all(creates);
    expect(answers.map((res) => res.status)).toEqual([201, 201]);
    // Neither text matches (it ends in "!"): no scenario took the trades.
    expect(answers.map((res) => res.headers.get('X-Sandbox-Scenario'))).toEqual([null, null]);

    // The pattern does match where it should, in linear time too.
    const matched = await create(`${url}/w/w1`, p2pBody({ order: 'a'.repeat(200) }));
    expect(matched.headers.get('X-Sandbox-Scenario')).toBe('evil-order');
  });
});

describe('patterns RE2 cannot take', () => {
  it('an upload with one is a 422 naming the pattern, the field and its line, and leaves the workspace as it was', async () => {
    const t = await makeSandbox();
    try {
      const upload = scenarioFile('lookahead', 'order: "^(?!test-)"');
      const res = await t.app.request('/w/w1/_sandbox/scenarios', { method: 'PUT', body: upload });
      expect(res.status).toBe(422);
      const error = await errorOf(res);
      expect(error.code).toBe('invalid_scenarios');
      expect(error.details).toEqual([
        { field: 'line 5 scenarios[0].match.order', message: expect.stringMatching(/^"\^\(\?!test-\)" cannot be matched: invalid or unsupported Perl syntax: `\(\?!` \(RE2 has no lookahead/) },
      ]);
      const listed = (await (await t.app.request('/w/w1/_sandbox/scenarios')).json()) as { scenarios: Array<{ name: string }> };
      expect(listed.scenarios.map((scenario) => scenario.name)).not.toContain('lookahead');
    } finally {
      await t.close();
    }
  });
});

describe('YAML written to expand exponentially', () => {
  it('a billion-laughs upload is a 422 naming the problem, and the workspace still answers', async () => {
    const t = await makeSandbox();
    try {
      const levels = ['  - name: laughs', '    description: &a lol'];
      for (let i = 1; i < 10; i++)
        levels.push(
          `    x${i}: &${String.fromCharCode(97 + i)} [${Array(10)
            .fill(`*${String.fromCharCode(96 + i)}`)
            .join(', ')}]`,
        );
      const res = await t.app.request('/w/w1/_sandbox/scenarios', { method: 'PUT', body: `scenarios:\n${levels.join('\n')}\n` });
      expect(res.status).toBe(422);
      const error = await errorOf(res);
      expect(error.code).toBe('invalid_scenarios');
      expect(error.details).toEqual([{ field: 'line 1', message: expect.stringMatching(/^expands YAML aliases \(\*name\) more than 100 times in all/) }]);
      expect((await t.app.request('/w/w1/_sandbox/health')).status).toBe(200);
    } finally {
      await t.close();
    }
  });
});
