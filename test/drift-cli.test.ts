import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { loadProfile } from '../src/profile/load-profile.js';
import { signCallback } from '../src/profile/sign-callback.js';
import { startSandbox, type RunningSandbox } from '../src/programmatic/start-sandbox.js';
import { junitErrors } from './junit-schema.js';
import { runCli } from './sandbox-process.js';
import { it } from './temp-folder.js';

// `deposit-sandbox drift` and `profile detect` as processes: exit codes, --json, --junit,
// --write-profile, --dry-run, and that neither the token nor the secret appears in anything they
// print or write. Targets are sandboxes in this process on 127.0.0.1 (docs/drift.md).

const MERCHANT = '6f1c2a9e-3b7d-4c52-9a1e-2d4b8f0c7e51';
const TOKEN = 'sandbox-token-demo';
const SECRET = 'sandbox-secret-demo';
/** The credentials travel in the environment, as in CI, never on the command line. */
const CREDENTIALS = { DEPOSIT_SANDBOX_TOKEN: TOKEN, DEPOSIT_SANDBOX_SECRET: SECRET };
const drift = (target: string, ...args: string[]) => runCli(['drift', '--target', target, '--merchant', MERCHANT, '--gap', '0', ...args], CREDENTIALS);
const secretFree = (...texts: string[]) => {
  for (const text of texts) {
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain(TOKEN);
  }
};

let same: RunningSandbox;
let strict: RunningSandbox;

beforeAll(async () => {
  same = await startSandbox();
  strict = await startSandbox({ profile: 'strict' });
});

afterAll(async () => {
  await same.close();
  await strict.close();
});

describe('deposit-sandbox drift', () => {
  it('exits 0 against a sandbox with the same profile, with --json and a valid --junit file', async ({ folder }) => {
    const junit = join(folder, 'drift.xml');
    const run = await drift(same.url, '--json', '--junit', junit);
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as { target: string; profile: string; probes: number; differences: unknown[]; trades: unknown[] };
    expect(report).toMatchObject({ target: same.url, profile: 'sandbox', probes: 23, differences: [] });
    expect(report.trades).toHaveLength(3);
    const xml = readFileSync(junit, 'utf8');
    expect(await junitErrors(xml)).toEqual([]);
    expect(xml).toContain('tests="24" failures="0" errors="0" skipped="1"');
    secretFree(run.stdout, run.stderr, xml);
  });

  it('exits 1 against a strict sandbox; the profile it writes makes the next run exit 0', async ({ folder }) => {
    const file = join(folder, 'provider.yaml');
    const run = await drift(strict.url, '--write-profile', file);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toMatch(/create\.repeated_order\s+error_shape\s+earlier trade's id\s+named\s+not named/);
    expect(run.stdout).toContain('1 difference in 1 probe.');
    expect(run.stderr).toContain(`drift: wrote ${file}: 1 choice adopted from the target`);
    const written = readFileSync(file, 'utf8');
    expect(written).toContain("  # create.repeated_order: the target's 422 for a repeated order does not name the earlier trade's id\n  duplicate_order_names_trade: false\n");
    secretFree(run.stdout, run.stderr, written);
    const again = await drift(strict.url, '--profile', file);
    expect(again.code, again.stdout).toBe(0);
    expect(again.stdout).toContain('No difference: the target answered as the sandbox does.');
  });

  it('--dry-run prints every request and sends none', async () => {
    const seen: string[] = [];
    const server = createServer((request, response) => {
      seen.push(request.url ?? '');
      response.end('{}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const run = await drift(url, '--dry-run', '--listen', '127.0.0.1:0', '--callback-url', 'https://tunnel.example/cb');
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain(`drift --dry-run: what a run sends to ${url} (nothing was sent)`);
      expect(run.stdout).toContain("create.repeated_order: a valid create with create.any_bank's order again");
      expect(run.stdout).toContain('X-Auth: <signature>');
      expect(run.stdout).toContain('"callback_url":"https://tunnel.example/cb"');
      secretFree(run.stdout, run.stderr);
      expect(seen).toEqual([]);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('exits 2 at an answer that is not JSON, and refuses a short gap to a target elsewhere', async () => {
    const server = createServer((_request, response) => response.writeHead(200, { 'Content-Type': 'text/html' }).end('<html>login</html>'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const run = await drift(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, '--json');
      expect(run.code).toBe(2);
      expect(JSON.parse(run.stdout).stopped).toMatchObject({ probe: 'create.any_bank' });
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
    const far = await drift('https://test.provider.example');
    expect(far.code).toBe(1);
    expect(far.stderr).toContain('--gap may go below 200 ms only for a target on this machine');
  });
});

describe('deposit-sandbox profile detect', () => {
  it('names the scheme of a captured callback (exit 0), and says what it tried when none verifies (exit 1)', async ({ folder }) => {
    const body = JSON.stringify({ id: 't-1', order: 'o-1', merchant: MERCHANT, state: 'confirmed', amount_cents: 100, amount_currency: 'RUB', rate: 92.5, payment_data: { url: 'https://p/x' } });
    const headers = signCallback(loadProfile('standard-webhooks'), { secret: SECRET, body, eventId: 'cb_t-1_1', attempt: 1, at: Date.now() });
    const file = join(folder, 'callback.har');
    const request = {
      method: 'POST',
      url: 'https://shop.example/cb',
      headers: Object.entries(headers).map(([name, value]) => ({ name, value })),
      postData: { mimeType: 'application/json', text: body },
    };
    writeFileSync(file, JSON.stringify({ log: { version: '1.2', entries: [{ request }] } }));
    const run = await runCli(['profile', 'detect', '--callback', file], CREDENTIALS);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('Verified: standard-webhooks: Standard Webhooks');
    expect(run.stdout).toContain('as the profile standard-webhooks signs callbacks');
    const other = await runCli(['profile', 'detect', '--callback', file, '--json'], { DEPOSIT_SANDBOX_SECRET: 'another-secret' });
    expect(other.code).toBe(1);
    expect(JSON.parse(other.stdout)).toMatchObject({ kind: 'callback', verified: [] });
    secretFree(run.stdout, run.stderr);
  });
});
