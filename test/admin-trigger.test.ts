/**
 * `deposit-sandbox trigger` and `reset` as QA runs them: one real sandbox process on port 0 for
 * the file (each test its own trades, or its own workspace where it counts them) and the CLI as a
 * second process, real HTTP on 127.0.0.1. Runs the build in dist/ (`npm test` builds first;
 * run `npm run build` before running this file alone).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLOSED_PORT } from './callbacks-receiver.js';
import { runCli as cli, startSharedProcess, stopProcess, type SandboxProcess } from './sandbox-process.js';
import { DEMO, nextOrder, p2pBody, SECOND } from './support.js';

const TOKEN = 'qa-admin-token';

let sandbox: SandboxProcess;
let url: string;

beforeAll(async () => {
  sandbox = await startSharedProcess(['--port', '0', '--in-memory', '--admin-token', TOKEN]);
  url = sandbox.url;
  expect(sandbox.stdout().split('\n')[0]).toBe(`deposit-sandbox listening on ${url}`);
});

afterAll(async () => {
  if (sandbox) await stopProcess(sandbox);
});

async function createTrade(): Promise<string> {
  const res = await fetch(`${url}/api/v1/trades/deposit/create`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Auth': DEMO.token },
    body: JSON.stringify(p2pBody()),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

describe('deposit-sandbox trigger', () => {
  it('moves a trade through the admin API and prints the result', async () => {
    const id = await createTrade();
    const result = await cli(['trigger', id, 'confirmed', '--url', url, '--admin-token', TOKEN, '--note', 'from the terminal']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`Trade ${id} is now confirmed (a final state).`);
    expect(result.stdout).toContain('312.50 RUB');

    const detail = await fetch(`${url}/_sandbox/trades/${id}`, { headers: { Authorization: `Bearer ${TOKEN}` } });
    const { history } = (await detail.json()) as { history: Array<{ to: string; cause: string; note?: string }> };
    expect(history.at(-1)).toMatchObject({ to: 'confirmed', cause: 'admin', note: 'from the terminal' });
  });

  it('reads the URL and the admin token from the environment, and prints JSON on request', async () => {
    const id = await createTrade();
    const result = await cli(['trigger', id, 'canceled', '--json'], { DEPOSIT_SANDBOX_URL: url, DEPOSIT_SANDBOX_ADMIN_TOKEN: TOKEN });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ trade: { id, state: 'canceled', allowed: [] } });
  });

  it('prints the error message and exits 1 when the move is not allowed, the state unknown or the trade missing', async () => {
    const id = await createTrade();
    await cli(['trigger', id, 'expired', '--url', url, '--admin-token', TOKEN]);
    const final = await cli(['trigger', id, 'confirmed', '--url', url, '--admin-token', TOKEN]);
    expect(final.code).toBe(1);
    expect(final.stdout).toBe('');
    expect(final.stderr).toMatch(
      /^deposit-sandbox: Trade .* is expired, a final state: it cannot move to confirmed\. \(allowed now: none, the state is final\)\n {2}sandbox: http:\/\/127\.0\.0\.1:\d+ \(from --url\)\n$/,
    );

    const unknown = await cli(['trigger', await createTrade(), 'paid', '--url', url, '--admin-token', TOKEN]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('created, ecom, confirmed, canceled, expired');

    const missing = await cli(['trigger', '3f0c9a52-0d8e-4b4f-9a57-6f2b8f1f3c11', 'confirmed', '--url', url, '--admin-token', TOKEN]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('No trade with id');
    expect(missing.stderr).toContain(`sandbox: ${url} (from --url)`);
  });

  it('says how to pass the admin token when it is missing', async () => {
    const result = await cli(['trigger', await createTrade(), 'confirmed', '--url', url]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Authorization: Bearer <token>');
  });

  it('says when no sandbox answers at the URL', async () => {
    const port = CLOSED_PORT;
    const result = await cli(['trigger', 'any-id', 'confirmed', '--url', `http://127.0.0.1:${port}`]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`Could not reach the sandbox at http://127.0.0.1:${port} (ECONNREFUSED)`);
  });
});

describe('trigger and reset name the sandbox they talk to', () => {
  const create = (body: Record<string, unknown>, token: string = DEMO.token) =>
    fetch(`${url}/api/v1/trades/deposit/create`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Auth': token }, body: JSON.stringify(body) });

  it('trigger --order --merchant finds the trade through the admin API, with or without --merchant', async () => {
    const order = nextOrder('qa');
    expect((await create(p2pBody({ order }))).status).toBe(201);
    const byOrder = await cli(['trigger', 'confirmed', '--order', order, '--merchant', DEMO.id, '--url', url, '--admin-token', TOKEN]);
    expect(byOrder.stderr).toBe('');
    expect(byOrder.stdout).toMatch(new RegExp(`^Trade [0-9a-f-]{36} is now confirmed \\(a final state\\)\\.\\n  order ${order}, merchant ${DEMO.id}`));

    // The same order at a second merchant: without --merchant it is ambiguous, with it each is found.
    const shared = nextOrder('shared');
    await create(p2pBody({ order: shared }));
    await create(p2pBody({ order: shared, merchant: SECOND.id }), SECOND.token);
    const env = { DEPOSIT_SANDBOX_URL: url, DEPOSIT_SANDBOX_ADMIN_TOKEN: TOKEN };
    const ambiguous = await cli(['trigger', 'canceled', '--order', shared], env);
    expect(ambiguous.code).toBe(1);
    expect(ambiguous.stderr).toContain(`2 trades have order "${shared}"`);
    expect(ambiguous.stderr).toContain('Pass --merchant <id>');
    expect(ambiguous.stderr).toContain(`sandbox: ${url} (from DEPOSIT_SANDBOX_URL)`);
    const second = await cli(['trigger', 'canceled', '--order', shared, '--merchant', SECOND.id, '--json'], env);
    expect(JSON.parse(second.stdout)).toMatchObject({ trade: { order: shared, merchant: SECOND.id, state: 'canceled' } });

    const missing = await cli(['trigger', 'confirmed', '--order', 'no-such-order', '--merchant', DEMO.id], env);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(`No trade with order "no-such-order" for merchant ${DEMO.id}`);
    expect(missing.stderr).toContain(`sandbox: ${url} (from DEPOSIT_SANDBOX_URL)`);

    const usage = await cli(['trigger', 'some-id', 'confirmed', '--order', order], env);
    expect(usage.code).toBe(1);
    expect(usage.stderr).toContain('With --order, give only the state');
  });

  it('reset names the sandbox on every error, and the one it reset on success', async () => {
    // A workspace of its own: the other tests leave trades in the unprefixed sandbox, and this one counts what reset removed.
    const refused = await cli(['reset', '--url', url, '--workspace', 'reset-names']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('Authorization: Bearer <token>');
    expect(refused.stderr).toContain(`sandbox: ${url} workspace reset-names (from --url)`);
    const done = await cli(['reset', '--admin-token', TOKEN, '--workspace', 'reset-names'], { DEPOSIT_SANDBOX_URL: url });
    expect(done.code).toBe(0);
    expect(done.stdout).toContain(`Reset ${url}/w/reset-names: removed 0 trades`);

    const port = CLOSED_PORT;
    const gone = await cli(['reset', '--url', `http://127.0.0.1:${port}`]);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toContain(`Could not reach the sandbox at http://127.0.0.1:${port} (ECONNREFUSED)`);
  });
});

describe('serve flags for callbacks and the admin token', () => {
  it('reads --callback-timeout and --callback-retries (and their env fallbacks) and names a bad value', async () => {
    const flag = await cli(['--port', '0', '--in-memory', '--callback-retries', '1s,soon']);
    expect(flag.code).toBe(1);
    expect(flag.stderr).toContain('--callback-retries: "soon" is not a duration');
    const env = await cli(['--port', '0', '--in-memory'], { DEPOSIT_SANDBOX_CALLBACK_TIMEOUT: '0' });
    expect(env.code).toBe(1);
    // A value from the environment is reported under the variable's name, not the flag's.
    expect(env.stderr).toContain('DEPOSIT_SANDBOX_CALLBACK_TIMEOUT: must be longer than 0');
  });

  it('lists the flags in serve --help and trigger --help', async () => {
    const serve = await cli(['serve', '--help']);
    for (const flag of ['--admin-token <token>', '--callback-timeout <duration>', '--callback-retries <list>']) expect(serve.stdout).toContain(flag);
    const trigger = await cli(['trigger', '--help']);
    expect(trigger.stdout).toContain('Usage: deposit-sandbox trigger [options] <trade-id> <state> | <state> --order <order> [--merchant <id>]');
    expect(trigger.stdout).toContain('--url <url>');
  });
});
