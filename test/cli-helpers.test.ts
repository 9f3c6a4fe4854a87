/**
 * `deposit-sandbox sign`, `reset` and `check-callback` as real processes (the build in dist/:
 * `npm test` builds first; run `npm run build` before running this file alone), against a
 * sandbox and receivers in this process on 127.0.0.1, port 0.
 */
import { createHash, createHmac } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { it } from './temp-folder.js';
import { verifyCallbackSignature } from '../src/auth/signature.js';
import type { CheckReport } from '../src/check-callback/check-report.js';
import { startSandbox, type RunningSandbox } from '../src/programmatic/start-sandbox.js';
import { CLOSED_PORT, startReceiver, type Receiver } from './callbacks-receiver.js';
import { DEMO, p2pBody, SECOND } from './support.js';
import { runCli as cli } from './sandbox-process.js';

// Computed apart from the sandbox, with OpenSSL:
//   printf '%s' '31250::RUB::::c-7::6f1c2a9e-3b7d-4c52-9a1e-2d4b8f0c7e51::order-1001::::any_bank' | openssl dgst -sha256 -hmac sandbox-secret-demo
//   printf '%s' '6f1c2a9e-3b7d-4c52-9a1e-2d4b8f0c7e51::3f0c9a52-0d8e-4b4f-9a57-6f2b8f1f3c11' | openssl dgst -sha256 -hmac sandbox-secret-demo
const CREATE_VECTOR = {
  text: '31250::RUB::::c-7::6f1c2a9e-3b7d-4c52-9a1e-2d4b8f0c7e51::order-1001::::any_bank',
  signature: '74dc43db63aca411cc2961649f7af419e98c8d5c596b1c029b695bb8fb0acfbb',
};
const GET_VECTOR = {
  text: '6f1c2a9e-3b7d-4c52-9a1e-2d4b8f0c7e51::3f0c9a52-0d8e-4b4f-9a57-6f2b8f1f3c11',
  signature: 'fb72f23db43f90ec3d0cd04c01af45707c08a0a682563f64a2c68810cf6b72de',
};
const CREATE_FIELDS = [`merchant=${DEMO.id}`, 'order=order-1001', 'amount_cents=31250', 'amount_currency=RUB', 'type=any_bank'];

describe('deposit-sandbox sign', () => {
  it('prints the string to sign and the signature of a create request (an OpenSSL-computed vector)', async () => {
    const result = await cli(['sign', '--secret', 'sandbox-secret-demo', ...CREATE_FIELDS, 'customer=c-7']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      [
        'endpoint:       create (POST /api/v1/trades/deposit/create)',
        'fields, in signing order:',
        '  amount_cents     31250',
        '  amount_currency  RUB',
        '  callback_url     (empty)',
        '  cusotmer         c-7',
        `  merchant         ${DEMO.id}`,
        '  order            order-1001',
        '  return_url       (empty)',
        '  type             any_bank',
        `string to sign: ${CREATE_VECTOR.text}`,
        `signature:      ${CREATE_VECTOR.signature}`,
        `header:         X-Auth: ${CREATE_VECTOR.signature}`,
        '(HMAC-SHA256, hex, keyed with --secret)',
        '',
      ].join('\n'),
    );
  });

  it('reads a JSON body (either spelling of cusotmer) and prints JSON', async () => {
    const body = JSON.stringify({ merchant: DEMO.id, order: 'order-1001', amount_cents: 31250, amount_currency: 'RUB', type: 'any_bank', cusotmer: 'c-7' });
    const result = await cli(['sign', '--secret', 'sandbox-secret-demo', '--body', body, '--json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ endpoint: 'create', string_to_sign: CREATE_VECTOR.text, signature: CREATE_VECTOR.signature, header: 'X-Auth', secret_from: '--secret' });
  });

  it("signs a get with the fixtures' secret of the merchant when --secret is absent", async () => {
    const result = await cli(['sign', '--endpoint', 'get', `merchant=${DEMO.id}`, 'uuid=3f0c9a52-0d8e-4b4f-9a57-6f2b8f1f3c11']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`string to sign: ${GET_VECTOR.text}\n`);
    expect(result.stdout).toContain(`header:         X-Token: ${GET_VECTOR.signature}\n`);
    expect(result.stdout).toContain(`(HMAC-SHA256, hex, keyed with the secret of Demo Shop (${DEMO.id}) in the bundled fixtures)`);
  });

  it('gives a signature the sandbox accepts', async () => {
    const sandbox = await startSandbox({ auth: 'signature' });
    try {
      const body = p2pBody({ callback_url: 'https://shop.test/cb' });
      const signed = await cli(['sign', '--secret', DEMO.secret, '--body', JSON.stringify(body), '--json']);
      const { signature } = JSON.parse(signed.stdout) as { signature: string };
      const res = await fetch(`${sandbox.url}/api/v1/trades/deposit/create`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Auth': signature },
        body: JSON.stringify(body),
      });
      expect(res.status).toBe(201);
    } finally {
      await sandbox.close();
    }
  });

  it.each([
    [
      ['--secret', 's3cret-value', 'foo=1'],
      '"foo" is not part of the create signature. Its fields, in order: amount_cents, amount_currency, callback_url, cusotmer, merchant, order, return_url, type (customer fills the cusotmer slot).',
    ],
    [['--secret', 's3cret-value', 'order'], '"order" is not key=value.'],
    [['--secret', 's3cret-value', 'customer=a', 'cusotmer=b'], 'customer and cusotmer are two spellings of one field and were given different values ("a" and "b")'],
    [['merchant=2c9d7e41-5b6a-4f38-9e0d-7a1b3c5d7e9f'], '--secret is required: merchant 2c9d7e41-5b6a-4f38-9e0d-7a1b3c5d7e9f is not in the bundled fixtures.'],
    [['--secret', 's3cret-value', '--body', '{"merchant":'], '--body is not valid JSON'],
    [['--endpoint', 'refund', '--secret', 'x'], "argument 'refund' is invalid. Allowed choices are create, build, get."],
  ])('%j fails with a message that says what to fix', async (args, message) => {
    const result = await cli(['sign', ...args]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(message);
  });
});

// Computed apart from the sandbox, with md5sum and OpenSSL:
//   printf '%s' '31250:RUB::c-7:6f1c2a9e-3b7d-4c52-9a1e-2d4b8f0c7e51:order-1001::any_bank:sandbox-secret-demo' | md5sum
//   printf '%s' '6f1c2a9e-3b7d-4c52-9a1e-2d4b8f0c7e51::3f0c9a52-0d8e-4b4f-9a57-6f2b8f1f3c11' | openssl dgst -sha512 -hmac sandbox-secret-demo -binary | base64 -w0
const MD5_CREATE = { text: '31250:RUB::c-7:6f1c2a9e-3b7d-4c52-9a1e-2d4b8f0c7e51:order-1001::any_bank:<secret>', signature: '6aa396facffe31f4b2ede849e64deb01' };
const SHA512_GET = 'OnQ5eLmMiDnZKu//yj7rSvPzIm8d71dGiIsl54lDFGQLcBIDKDImT8Bw6YNfnistKumR1LEQ2c1ULLYlGllDQw==';

describe('deposit-sandbox sign --batch', () => {
  it('signs every request of standard input in one process, one --json result per line, as docs/cli.md shows; a line it cannot sign says why and the command exits 1', async () => {
    const uuid = '3f0c9a52-0d8e-4b4f-9a57-6f2b8f1f3c11';
    // docs/cli.md's two requests, and a get with a field a get does not sign.
    const requests = [
      { fields: { merchant: DEMO.id, order: 'order-1001', amount_cents: 31250, amount_currency: 'RUB', type: 'any_bank' } },
      { profile: 'md5-colon', endpoint: 'get', fields: { merchant: DEMO.id, uuid } },
      { endpoint: 'get', fields: { merchant: DEMO.id, order: 'o-1' } },
    ];
    const run = await cli(['sign', '--batch', '--secret', 'sandbox-secret-demo'], {}, `${requests.map((request) => JSON.stringify(request)).join('\n')}\n`);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe('deposit-sandbox sign --batch: 1 request could not be signed; its line says why.\n');
    const lines = run.stdout.split('\n');
    expect(lines).toHaveLength(4);
    // Computed apart from the sandbox, with node:crypto.
    const createText = `31250::RUB::::::${DEMO.id}::order-1001::::any_bank`;
    const createSignature = createHmac('sha256', 'sandbox-secret-demo').update(createText).digest('hex');
    const getSignature = createHash('md5').update(`${DEMO.id}:${uuid}:sandbox-secret-demo`).digest('hex');
    expect(JSON.parse(lines[0]!)).toMatchObject({ endpoint: 'create', string_to_sign: createText, signature: createSignature, header: 'X-Auth', secret_from: '--secret' });
    expect(JSON.parse(lines[1]!)).toMatchObject({ endpoint: 'get', string_to_sign: `${DEMO.id}:${uuid}:<secret>`, signature: getSignature, header: 'X-Token', profile: 'md5-colon' });
    expect(JSON.parse(lines[2]!)).toEqual({ line: 3, error: expect.stringContaining('"order" is not part of the get signature') });
    const page = readFileSync(new URL('../docs/cli.md', import.meta.url), 'utf8');
    for (const signature of [createSignature, getSignature]) expect(page, 'the output docs/cli.md shows').toContain(`"signature":"${signature}"`);
  });

  // A process: what a shell sees of a refusal, its exit status and stderr (the message itself is src/cli/sign-batch.test.ts's).
  it('refuses name=value arguments beside it, which belong in the lines', async () => {
    const run = await cli(['sign', '--batch', `merchant=${DEMO.id}`], {}, '');
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('--batch takes each request from standard input;');
  });
});

describe('deposit-sandbox sign --profile', () => {
  it('prints what the profile signs, with the secret slot shown as <secret> (an md5sum-computed vector)', async () => {
    const result = await cli(['sign', '--profile', 'md5-colon', '--secret', 'sandbox-secret-demo', ...CREATE_FIELDS, 'customer=c-7']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout.split('\n').slice(-5)).toEqual([
      `string to sign: ${MD5_CREATE.text}`,
      `signature:      ${MD5_CREATE.signature}`,
      `header:         X-Auth: ${MD5_CREATE.signature}`,
      '(MD5, hex, --secret as the last slot; profile md5-colon)',
      '',
    ]);
  });

  it('names the signature header and the token header apart, in text and JSON, from DEPOSIT_SANDBOX_PROFILE (an OpenSSL-computed vector)', async () => {
    const args = ['sign', '--endpoint', 'get', `merchant=${DEMO.id}`, 'uuid=3f0c9a52-0d8e-4b4f-9a57-6f2b8f1f3c11'];
    const [text, json] = await Promise.all([cli(args, { DEPOSIT_SANDBOX_PROFILE: 'hmac-sha512-base64' }), cli([...args, '--json'], { DEPOSIT_SANDBOX_PROFILE: 'hmac-sha512-base64' })]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain(
      [
        `header:         X-Signature: ${SHA512_GET}`,
        "token:          X-Token: <the merchant's token> (the signature travels apart, in X-Signature)",
        `(HMAC-SHA512, base64, keyed with the secret of Demo Shop (${DEMO.id}) in the bundled fixtures; profile hmac-sha512-base64)`,
      ].join('\n'),
    );
    expect(JSON.parse(json.stdout)).toEqual({
      endpoint: 'get',
      fields: [
        { name: 'merchant', value: DEMO.id },
        { name: 'uuid', value: '3f0c9a52-0d8e-4b4f-9a57-6f2b8f1f3c11' },
      ],
      string_to_sign: GET_VECTOR.text,
      signature: SHA512_GET,
      header: 'X-Signature',
      secret_from: `the secret of Demo Shop (${DEMO.id}) in the bundled fixtures`,
      profile: 'hmac-sha512-base64',
      algorithm: 'HMAC-SHA512, base64',
      token_header: 'X-Token',
    });
  });

  it('reads a profile file, and --profile wins over DEPOSIT_SANDBOX_PROFILE', async ({ folder }) => {
    const file = join(folder, 'my-provider.yaml');
    writeFileSync(file, 'name: my-provider\nextends: sandbox\nrequests:\n  signature:\n    algorithm: md5\n    separator: ":"\n    secret: last-slot\n');
    const result = await cli(['sign', '--profile', file, '--secret', 'sandbox-secret-demo', '--json', ...CREATE_FIELDS, 'customer=c-7'], { DEPOSIT_SANDBOX_PROFILE: 'strict' });
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({
      string_to_sign: MD5_CREATE.text,
      signature: MD5_CREATE.signature,
      header: 'X-Auth',
      profile: 'my-provider',
      algorithm: 'MD5, hex',
      token_header: null,
    });
  });

  it('exits 2 on a profile it cannot use, listing the built-ins', async () => {
    const result = await cli(['sign', '--profile', 'md5colon', '--secret', 's3cret-value', 'order=o-1']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(
      'md5colon: is not a built-in profile; did you mean md5-colon? The built-ins: sandbox, sha256-secret-last, hmac-sha512-base64, md5-colon, standard-webhooks, strict.',
    );
  });
});

describe('deposit-sandbox reset', () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ adminToken: 'reset-token' });
  });
  afterAll(() => sandbox.close());

  const create = () => fetch(`${sandbox.url}/api/v1/trades/deposit/create`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Auth': DEMO.token }, body: JSON.stringify(p2pBody()) });

  it('removes every trade and says what it removed', async () => {
    await create();
    await create();
    const result = await cli(['reset', '--url', sandbox.url, '--admin-token', 'reset-token']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`Reset ${sandbox.url}: removed 2 trades, 0 callbacks and 0 pending steps. The clock was left as it is.\n`);
    expect((await sandbox.admin.trades()).total).toBe(0);
  });

  it('reads the URL and token from the environment and prints JSON on request', async () => {
    await create();
    const result = await cli(['reset', '--json'], { DEPOSIT_SANDBOX_URL: `${sandbox.url}/`, DEPOSIT_SANDBOX_ADMIN_TOKEN: 'reset-token' });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ status: 'reset', removed: { trades: 1, callbacks: 0, jobs: 0 } });
  });

  it('exits 1 saying how to pass the token, or that nothing answers', async () => {
    const refused = await cli(['reset', '--url', sandbox.url]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('deposit-sandbox: This sandbox runs with an admin token, and the request has no Authorization header. Send `Authorization: Bearer <token>`');
    const port = CLOSED_PORT;
    const unreachable = await cli(['reset', '--url', `http://127.0.0.1:${port}`]);
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr).toBe(
      `deposit-sandbox: Could not reach the sandbox at http://127.0.0.1:${port} (ECONNREFUSED). Start it with \`deposit-sandbox\`, or point --url (or DEPOSIT_SANDBOX_URL) at it.\n  sandbox: http://127.0.0.1:${port} (from --url)\n`,
    );
  });
});

describe('deposit-sandbox check-callback', () => {
  let good: Receiver;
  let naive: Receiver;
  beforeAll(async () => {
    good = await startReceiver((request, res) => {
      const secret = request.path === '/second' ? SECOND.secret : DEMO.secret;
      const ok = verifyCallbackSignature(secret, request.body, request.headers['x-signature'] as string | undefined);
      res.writeHead(ok ? 200 : 401).end(ok ? 'ok' : 'bad signature');
    });
    naive = await startReceiver();
  });
  afterAll(async () => {
    await Promise.all([good.close(), naive.close()]);
  });

  it('exits 0 for a receiver that passes, printing each case', async () => {
    const result = await cli(['check-callback', `${good.url}/cb`]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const lines = result.stdout.split('\n');
    expect(lines[0]).toBe(`Checking the callback receiver ${good.url}/cb as merchant ${DEMO.id} (Demo Shop)`);
    expect(lines.filter((line) => /^ {2}ok {7}/.test(line)).map((line) => line.slice(11, 45).trim())).toEqual([
      'a valid callback',
      'the same callback again',
      'an older state after a newer one',
      'a wrong signature',
      'no signature',
    ]);
    expect(result.stdout).toContain('\nThe receiver passed all 5 checks.\n');
    // A pass without --probe is no clean bill for credits, and says so.
    expect(result.stdout).toContain("\nCredits were NOT checked: without --probe this check reads your receiver's answers only, and a receiver that credits an order twice still answers 200.\n");
    expect(result.stdout.endsWith(`\n  deposit-sandbox check-callback ${good.url}/cb --probe ${good.url}/probe\n`)).toBe(true);
  });

  it('exits 1 and says what to fix when the receiver accepts forged callbacks', async () => {
    const result = await cli(['check-callback', naive.url]);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(
      /\n {2}FLAGGED {2}a wrong signature +200 in \d+ ms\n {11}Accepted a callback whose X-Signature is wrong \(200\): anyone who can reach this URL could mark orders paid\./,
    );
    expect(result.stdout).toMatch(/\n {2}FLAGGED {2}no signature +200 in \d+ ms\n/);
    expect(result.stdout).toContain('\n2 of 5 checks flagged: fix them and run the check again.\n\nCredits were NOT checked:');
  });

  it('takes the merchant and prints JSON; a wrong --secret is caught by a receiver that verifies', async () => {
    const right = await cli(['check-callback', `${good.url}/second`, '--merchant', SECOND.id, '--json']);
    expect(right.code).toBe(0);
    const report = JSON.parse(right.stdout) as CheckReport;
    expect(report).toMatchObject({ merchant: SECOND.id, passed: true, flagged: 0 });
    const wrong = await cli(['check-callback', `${good.url}/second`, '--merchant', SECOND.id, '--secret', 'not-the-secret']);
    expect(wrong.code).toBe(1);
    expect(wrong.stdout).toContain('this check used the secret given with --secret');
  });

  it('reads merchants from --fixtures', async ({ folder: dir }) => {
    const file = join(dir, 'merchants.json');
    writeFileSync(file, JSON.stringify({ merchants: [{ id: DEMO.id, name: 'My Shop', token: 'my-token-1', secret: DEMO.secret, rate: 100 }] }));
    const result = await cli(['check-callback', `${good.url}/cb`, '--fixtures', file]);
    expect(result.code).toBe(0);
    expect(result.stdout.split('\n')[0]).toBe(`Checking the callback receiver ${good.url}/cb as merchant ${DEMO.id} (My Shop)`);
  });

  it.each([
    [['ftp://shop.test/cb'], '"ftp://shop.test/cb" is not an absolute http(s) URL.'],
    [
      ['http://127.0.0.1:1/cb', '--merchant', '2c9d7e41-5b6a-4f38-9e0d-7a1b3c5d7e9f'],
      `Merchant 2c9d7e41-5b6a-4f38-9e0d-7a1b3c5d7e9f is not in the bundled fixtures (it lists ${DEMO.id}, ${SECOND.id}). Pass its secret with --secret <secret>`,
    ],
    [['http://127.0.0.1:1/cb', '--timeout', 'soon'], '--timeout must be a duration such as "500ms"'],
  ])('%j fails before sending anything, saying why', async (args, message) => {
    const result = await cli(['check-callback', ...args]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(message);
  });
});

describe('help', () => {
  it('lists the commands, and each has examples', async () => {
    const top = await cli(['--help']);
    for (const command of ['sign [options] [fields...]', 'reset [options]', 'check-callback [options] <url>']) expect(top.stdout).toContain(command);
    for (const command of ['sign', 'reset', 'check-callback']) {
      const help = await cli([command, '--help']);
      expect(help.code).toBe(0);
      expect(help.stdout).toContain(`Usage: deposit-sandbox ${command}`);
      expect(help.stdout).toContain('Examples:');
    }
  });
});
