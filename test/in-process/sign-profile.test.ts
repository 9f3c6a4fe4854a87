/**
 * `deposit-sandbox sign` under a provider profile, against a running sandbox in this process:
 * with --workspace the workspace's own profile is used unless --profile names another, and the
 * sandbox signs with a merchant's secret as that profile signs (POST /_sandbox/merchants/:id/sign
 * with `signing`). Every expected signature is computed here with node:crypto, apart from the
 * product's signing code. The text and JSON output without a workspace are the CLI tests'
 * (test/cli-helpers.test.ts).
 */
import { createHash, createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signCommand, type SignOptions, type SignResult } from '../../src/cli/sign-command.js';
import type { Merchant } from '../../src/merchants/fixtures.js';
import { startSandbox, type RunningSandbox } from '../../src/programmatic/start-sandbox.js';
import { DEMO, errorOf } from '../support.js';

let sandbox: RunningSandbox;
let merchant: Merchant;

const FIELDS = (id: string) => [`merchant=${id}`, 'order=o-1', 'amount_cents=100', 'amount_currency=RUB', 'type=nspk'];
/** The create values of FIELDS in the document's order: amount_cents, amount_currency, callback_url, cusotmer, merchant, order, return_url, type. */
const SLOTS = (id: string) => ['100', 'RUB', '', '', id, 'o-1', '', 'nspk'];

async function run(fields: string[], options: SignOptions): Promise<{ text: string; json: SignResult }> {
  let text = '';
  let json = '';
  await signCommand(fields, options, (chunk) => (text += chunk));
  await signCommand(fields, { ...options, json: true }, (chunk) => (json += chunk));
  return { text, json: JSON.parse(json) as SignResult };
}

const putProfile = (workspace: string, text: string) => fetch(`${sandbox.url}/w/${workspace}/_sandbox/profile`, { method: 'PUT', headers: { 'Content-Type': 'application/yaml' }, body: text });

beforeAll(async () => {
  sandbox = await startSandbox({ auth: 'signature' });
  expect((await putProfile('sign-md5', 'name: shop-md5\nextends: md5-colon\n')).status).toBe(200);
  merchant = await sandbox.workspace('sign-md5').addMerchant();
});
afterAll(() => sandbox.close());

describe('sign --workspace follows the profile of the workspace', () => {
  it("the sandbox signs with the workspace merchant's secret under the workspace's profile, and the workspace accepts it", async () => {
    const { text, json } = await run(FIELDS(merchant.id), { url: sandbox.url, workspace: 'sign-md5' });
    const expected = createHash('md5')
      .update([...SLOTS(merchant.id), merchant.secret].join(':'))
      .digest('hex');
    expect(json).toMatchObject({ string_to_sign: `${SLOTS(merchant.id).join(':')}:<secret>`, signature: expected, header: 'X-Auth', profile: 'shop-md5', algorithm: 'MD5, hex', token_header: null });
    expect(text).toContain(`(MD5, hex, the secret of merchant ${merchant.id} in workspace sign-md5 of ${sandbox.url} as the last slot; profile shop-md5)\n`);
    expect(text).not.toContain(merchant.secret);
    const body = { merchant: merchant.id, order: 'o-1', amount_cents: 100, amount_currency: 'RUB', type: 'nspk' };
    const created = await fetch(`${sandbox.url}/w/sign-md5/api/v1/trades/deposit/create`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Auth': json.signature },
      body: JSON.stringify(body),
    });
    expect(created.status, await created.text()).toBe(201);
  });

  it('--profile wins over the workspace: the sandbox signs as the named profile does, in its header', async () => {
    const { json } = await run(FIELDS(merchant.id), { url: sandbox.url, workspace: 'sign-md5', profile: 'hmac-sha512-base64', envProfile: 'strict' });
    const expected = createHmac('sha512', merchant.secret).update(SLOTS(merchant.id).join('::')).digest('base64');
    expect(json).toMatchObject({ signature: expected, header: 'X-Signature', token_header: 'X-Auth', profile: 'hmac-sha512-base64', algorithm: 'HMAC-SHA512, base64' });
  });

  it("DEPOSIT_SANDBOX_PROFILE does not override the workspace's profile, which --secret signs under here too", async () => {
    const { json } = await run(FIELDS(DEMO.id), { url: sandbox.url, workspace: 'sign-md5', secret: 'a-secret-of-mine', envProfile: 'hmac-sha512-base64' });
    expect(json).toMatchObject({
      signature: createHash('md5')
        .update([...SLOTS(DEMO.id), 'a-secret-of-mine'].join(':'))
        .digest('hex'),
      profile: 'shop-md5',
      secret_from: '--secret',
    });
  });

  it('a workspace without a profile of its own follows the server, and its output is the sandbox one', async () => {
    const { json } = await run(FIELDS(DEMO.id), { url: sandbox.url, workspace: 'sign-plain' });
    expect(json).toMatchObject({ signature: createHmac('sha256', DEMO.secret).update(SLOTS(DEMO.id).join('::')).digest('hex'), header: 'X-Auth', profile: 'sandbox', token_header: null });
  });
});

describe('POST /_sandbox/merchants/:id/sign under a profile', () => {
  const signAs = (workspace: string, id: string, body: unknown) =>
    fetch(`${sandbox.url}/w/${workspace}/_sandbox/merchants/${id}/sign`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

  it("signs string_to_sign as the workspace's profile does, the secret a slot after it", async () => {
    const answer = await (await signAs('sign-md5', merchant.id, { string_to_sign: 'a:b' })).json();
    expect(answer).toEqual({ signature: createHash('md5').update(`a:b:${merchant.secret}`).digest('hex'), algorithm: 'MD5, hex', merchant: merchant.id });
  });

  it('signs as `signing` says, first slot included', async () => {
    const signing = { algorithm: 'sha1', separator: '|', secret: 'first-slot', encoding: 'base64', header: 'X-Sign' };
    const answer = await (await signAs('sign-md5', merchant.id, { string_to_sign: 'a|b', signing })).json();
    expect(answer).toEqual({ signature: createHash('sha1').update(`${merchant.secret}|a|b`).digest('base64'), algorithm: 'SHA-1, base64', merchant: merchant.id });
  });

  it('refuses a signing rule whose secret place does not suit its algorithm, with 422', async () => {
    const res = await signAs('sign-md5', merchant.id, { string_to_sign: 'a', signing: { algorithm: 'hmac-sha256', separator: '::', secret: 'last-slot', encoding: 'hex' } });
    expect(res.status).toBe(422);
    expect((await errorOf(res)).message).toContain('must be key with hmac-sha256 or hmac-sha512');
  });
});
