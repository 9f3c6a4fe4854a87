import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signBatch, signValues, type SignOptions } from './sign-command.js';

const MERCHANT = '6f1c2a9e-3b7d-4c52-9a1e-2d4b8f0c7e51';
const CREATE = { merchant: MERCHANT, order: 'o-1', amount_cents: 100, amount_currency: 'RUB', type: 'nspk' };
const CREATE_PAIRS = [`merchant=${MERCHANT}`, 'order=o-1', 'amount_cents=100', 'amount_currency=RUB', 'type=nspk'];

/** signBatch's output lines, parsed, and how many failed. */
function batch(lines: unknown[], options: SignOptions = {}): { out: Array<Record<string, unknown>>; failed: number } {
  let text = '';
  const input = lines.map((line) => (typeof line === 'string' ? line : JSON.stringify(line))).join('\n');
  const failed = signBatch(input, options, (chunk) => (text += chunk));
  return {
    out: text
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>),
    failed,
  };
}

describe('sign --batch', () => {
  it('signs each line as `sign --json` does, one result per line in order, each under its own profile; blank lines are skipped', () => {
    const { out, failed } = batch([
      { fields: CREATE },
      '',
      { profile: 'md5-colon', fields: CREATE },
      { endpoint: 'get', profile: 'hmac-sha512-base64', secret: 's3cret', fields: { merchant: MERCHANT, uuid: 'u-1' } },
    ]);
    expect(failed).toBe(0);
    expect(out).toEqual([
      signValues(CREATE_PAIRS, {}),
      signValues(CREATE_PAIRS, { profile: 'md5-colon' }),
      signValues([`merchant=${MERCHANT}`, 'uuid=u-1'], { endpoint: 'get', profile: 'hmac-sha512-base64', secret: 's3cret' }),
    ]);
    // Computed apart from the product's code: md5-colon puts the fixtures' secret in the last slot.
    expect(out[1]).toMatchObject({ profile: 'md5-colon', signature: createHash('md5').update(`100:RUB:::${MERCHANT}:o-1::nspk:sandbox-secret-demo`).digest('hex') });
  });

  it('the flags fill in what a line leaves out, and a line says otherwise for itself', () => {
    const { out } = batch([{ fields: CREATE }, { secret: 'other', fields: CREATE }], { secret: 's3cret', profile: 'md5-colon', endpoint: 'create' });
    expect(out.map((result) => [result['profile'], result['secret_from']])).toEqual([
      ['md5-colon', '--secret'],
      ['md5-colon', '--secret'],
    ]);
    expect(out[0]!['signature']).toBe(signValues(CREATE_PAIRS, { secret: 's3cret', profile: 'md5-colon' }).signature);
    expect(out[1]!['signature']).toBe(signValues(CREATE_PAIRS, { secret: 'other', profile: 'md5-colon' }).signature);
  });

  it('a line that cannot be signed gets its line number and what to fix in its place, and the others are still signed', () => {
    const { out, failed } = batch(['{"fields":', { field: {} }, { fields: { ...CREATE, uuid: 'u-1' } }, { profile: 'no-such-profile', fields: CREATE }, { fields: CREATE }]);
    expect(failed).toBe(4);
    expect(out.slice(0, 4)).toEqual([
      { line: 1, error: expect.stringMatching(/^not JSON \(.+\)\. Each line is one request, for example \{/) },
      { line: 2, error: '"field": not a key of a request. Its keys: endpoint, profile, secret and fields (the request\'s fields as an object).' },
      { line: 3, error: expect.stringContaining('"uuid" is not part of the create signature') },
      { line: 4, error: expect.stringContaining('no-such-profile') },
    ]);
    expect(out[4]).toEqual(signValues(CREATE_PAIRS, {}));
  });

  it('refuses --workspace and --body, which sign one request at a time', () => {
    expect(() => batch([{ fields: CREATE }], { workspace: 'w1' })).toThrow(/--batch signs here, with --secret or the fixtures' secrets; --workspace/);
    expect(() => batch([{ fields: CREATE }], { body: '{}' })).toThrow(/not with --body/);
  });
});
