/**
 * The short code examples of docs/ (programmatic.md, callbacks.md), run as written: each docs block
 * marked `<!-- excerpt: examples/doc-snippets.test.ts -->` is made of lines of this file, and
 * test/docs.test.ts checks that they still are. Also runs examples/node/callback-receiver.js.
 */
import { spawn } from 'node:child_process';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { startSandbox } from 'deposit-sandbox';
import { AdminClientError } from 'deposit-sandbox';
import { sign, stringToSign } from 'deposit-sandbox';
import { verifyCallbackSignature } from 'deposit-sandbox';
import { loadProfile, signatureHeader, signRequest, type Profile } from 'deposit-sandbox';

const DEMO = { id: '6f1c2a9e-3b7d-4c52-9a1e-2d4b8f0c7e51', token: 'sandbox-token-demo', secret: 'sandbox-secret-demo' };

/** A receiver that keeps each callback's verdict, as a merchant's endpoint would. */
async function startReceiver() {
  const verdicts: boolean[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const rawBody = Buffer.concat(chunks);
      const valid = verifyCallbackSignature('sandbox-secret-demo', rawBody, req.headers['x-signature'] as string | undefined); // true or false
      verdicts.push(valid);
      res.writeHead(valid ? 200 : 401).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/callbacks`;
  return { url, verdicts, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

async function createTrade(baseUrl: string, fields: Record<string, unknown> = {}): Promise<string> {
  const res = await fetch(`${baseUrl}/api/v1/trades/deposit/create`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Auth': DEMO.token },
    body: JSON.stringify({ merchant: DEMO.id, order: `snippet-${Date.now()}-${Math.random()}`, amount_cents: 31250, amount_currency: 'RUB', type: 'any_bank', ...fields }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

test('startSandbox: serve, move a trade, wait for its verified callback, close', async () => {
  const receiver = await startReceiver();
  const sandbox = await startSandbox(); // http://127.0.0.1:<free port>, in memory
  const baseUrl = sandbox.url; // use it as the provider's base URL
  try {
    const id = await createTrade(baseUrl, { callback_url: receiver.url });
    await sandbox.admin.transition(id, 'confirmed');
    await sandbox.callbacks.waitFor({ trade: id, state: 'confirmed' });
    expect(receiver.verdicts).toEqual([true]);
  } finally {
    await sandbox.close();
    await receiver.close();
  }
});

test("a refused admin call rejects with AdminClientError: status, code and the sandbox's message", async () => {
  const sandbox = await startSandbox();
  try {
    const id = await createTrade(sandbox.url);
    await sandbox.admin.transition(id, 'expired');
    const refused = await (async () => {
      try {
        await sandbox.admin.transition(id, 'confirmed'); // after the trade expired
        return undefined;
      } catch (error) {
        return error;
      }
    })();
    expect(refused).toBeInstanceOf(AdminClientError);
    expect(refused).toMatchObject({ status: 409, code: 'transition_not_allowed' });
    expect((refused as Error).message).toMatch(/is expired, a final state: it cannot move to confirmed/);
  } finally {
    await sandbox.close();
  }
});

test('sign + stringToSign give the X-Auth a sandbox in signature mode accepts', async () => {
  const sandbox = await startSandbox({ auth: 'signature' });
  try {
    const body = { merchant: '6f1c2a9e-3b7d-4c52-9a1e-2d4b8f0c7e51', order: 'order-1001', amount_cents: 31250, amount_currency: 'RUB', type: 'any_bank' };
    const xAuth = sign('sandbox-secret-demo', stringToSign('create', body));
    const res = await fetch(`${sandbox.url}/api/v1/trades/deposit/create`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Auth': xAuth }, body: JSON.stringify(body) });
    expect(res.status).toBe(201);
    const wrong = await fetch(`${sandbox.url}/api/v1/trades/deposit/create`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Auth': xAuth },
      body: JSON.stringify({ ...body, order: 'order-1002' }),
    });
    expect(wrong.status).toBe(401);
  } finally {
    await sandbox.close();
  }
});

test('signRequest + signatureHeader sign as the provider profile in force does, beside the token when its header is its own', async () => {
  const sandbox = await startSandbox({ auth: 'signature', profile: 'hmac-sha512-base64' });
  try {
    const merchant = sandbox.merchants[0]!;
    const body = { merchant: merchant.id, order: 'order-1001', amount_cents: 31250, amount_currency: 'RUB', type: 'any_bank' };
    const send = async (profile: Profile) => {
      const headers = {
        'Content-Type': 'application/json',
        'X-Auth': merchant.token, // the token's header: the signature replaces it unless the profile names a header of its own
        [signatureHeader(profile, 'create')]: signRequest(profile, merchant.secret, 'create', body), // X-Signature here
      };
      return fetch(`${sandbox.url}/api/v1/trades/deposit/create`, { method: 'POST', headers, body: JSON.stringify(body) });
    };
    expect((await send(sandbox.profile)).status).toBe(201); // the profile the sandbox follows
    const provider = sandbox.workspace('provider-b');
    const md5 = await provider.setProfile('md5-colon'); // a workspace's own: a built-in or a profile file's text
    expect(md5.requests).toEqual(loadProfile('md5-colon').requests); // loadProfile('./my-provider.yaml') reads your file
    const res = await fetch(`${provider.url}/api/v1/trades/deposit/create`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', [signatureHeader(md5, 'create')]: signRequest(md5, merchant.secret, 'create', body) },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(201);
  } finally {
    await sandbox.close();
  }
});

test('examples/node/callback-receiver.js handles a signed callback once, by trade id and state, and refuses an unsigned one', async () => {
  const script = fileURLToPath(new URL('node/callback-receiver.js', import.meta.url));
  const child = spawn(process.execPath, [script], { env: { ...process.env, PORT: '0' }, stdio: ['ignore', 'pipe', 'inherit'] });
  let printed = '';
  /** Resolves once the receiver has printed a line matching `pattern` (its output, not a timer, says when). */
  const printedLine = (pattern: RegExp) =>
    new Promise<RegExpExecArray>((resolve, reject) => {
      const check = () => {
        const match = pattern.exec(printed);
        if (match) resolve(match);
        return match !== null;
      };
      if (check()) return;
      const onData = () => check() && child.stdout.off('data', onData);
      child.stdout.on('data', onData);
      child.once('exit', (code) => reject(new Error(`the receiver exited (${code}) before printing ${pattern}; it printed: ${printed}`)));
    });
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (printed += chunk));
  const sandbox = await startSandbox();
  try {
    const [, base] = await printedLine(/^listening on (http:\/\/\S+)$/m);
    const url = `${base}/deposit-callback`;
    expect((await fetch(url, { method: 'POST', body: '{}' })).status).toBe(401);
    const id = await createTrade(sandbox.url, { callback_url: url });
    await sandbox.admin.transition(id, 'confirmed');
    const event = await sandbox.callbacks.waitFor({ trade: id, state: 'confirmed' });
    await printedLine(new RegExp(`trade ${id} is confirmed`));
    // The same event again, as a retry would send it: answered 200, handled once.
    const again = await fetch(url, { method: 'POST', headers: { 'X-Signature': sign(DEMO.secret, event.body), 'X-Sandbox-Event-Id': event.id }, body: event.body });
    expect(again.status).toBe(200);
    // As a replay (a new event id) or a profile without X-Sandbox-* headers (strict) sends it: handled once too.
    const bare = await fetch(url, { method: 'POST', headers: { 'X-Signature': sign(DEMO.secret, event.body) }, body: event.body });
    expect(bare.status).toBe(200);
    expect(printed.split('\n').filter((line) => line.includes(id))).toHaveLength(1);
  } finally {
    await sandbox.close();
    child.kill();
  }
});
