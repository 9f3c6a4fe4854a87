import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { signBatch, signBatchCommand, type BatchOptions } from './sign-batch.js';
import { signValues, type SignOptions } from './sign-command.js';

const MERCHANT = '6f1c2a9e-3b7d-4c52-9a1e-2d4b8f0c7e51';
const CREATE = { merchant: MERCHANT, order: 'o-1', amount_cents: 100, amount_currency: 'RUB', type: 'nspk' };
const CREATE_PAIRS = [`merchant=${MERCHANT}`, 'order=o-1', 'amount_cents=100', 'amount_currency=RUB', 'type=nspk'];

const text = (lines: unknown[]) => lines.map((line) => (typeof line === 'string' ? line : JSON.stringify(line))).join('\n');

/** signBatch's output lines, parsed, and how many failed. */
function batch(lines: unknown[], options: SignOptions = {}): { out: Array<Record<string, unknown>>; failed: number } {
  let written = '';
  const failed = signBatch(text(lines), options, (chunk) => (written += chunk));
  return {
    out: written
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>),
    failed,
  };
}

/** Standard input that fails the test if it is read at all. */
const unread: AsyncIterable<Buffer> = {
  [Symbol.asyncIterator]: () => ({
    next: () => Promise.reject(new Error('standard input was read')),
  }),
};

/** signBatchCommand over `input` (its text, its chunks as they arrive, or `unread`), with what it wrote and warned. */
async function command(fields: string[], options: BatchOptions, input: string | Buffer[] | typeof unread, isTTY = false) {
  let out = '';
  let warned = '';
  const stream = Object.assign(typeof input === 'string' ? Readable.from([input]) : Array.isArray(input) ? Readable.from(input) : input, { isTTY });
  const failed = await signBatchCommand(
    fields,
    options,
    stream,
    (chunk) => (out += chunk),
    (chunk) => (warned += chunk),
  );
  return { failed, out, warned };
}

describe('sign --batch', () => {
  it('signs each line as `sign --json` does, one result per line in order, each under its own profile', () => {
    const { out, failed } = batch([
      { fields: CREATE },
      { profile: 'md5-colon', fields: CREATE },
      { endpoint: 'get', profile: 'hmac-sha512-base64', secret: 's3cret', fields: { merchant: MERCHANT, uuid: 'u-1' } },
    ]);
    expect(failed).toBe(0);
    expect(out).toEqual([
      signValues(CREATE_PAIRS, {}),
      signValues(CREATE_PAIRS, { profile: 'md5-colon' }),
      { ...signValues([`merchant=${MERCHANT}`, 'uuid=u-1'], { endpoint: 'get', profile: 'hmac-sha512-base64', secret: 's3cret' }), secret_from: 'the "secret" of line 3' },
    ]);
    // Computed apart from the product's code: md5-colon puts the fixtures' secret in the last slot.
    expect(out[1]).toMatchObject({ profile: 'md5-colon', signature: createHash('md5').update(`100:RUB:::${MERCHANT}:o-1::nspk:sandbox-secret-demo`).digest('hex') });
  });

  it('the flags fill in what a line leaves out, and a line says otherwise for itself', () => {
    const { out } = batch([{ fields: CREATE }, { secret: 'other', fields: CREATE }], { secret: 's3cret', profile: 'md5-colon', endpoint: 'create' });
    expect(out.map((result) => [result['profile'], result['secret_from']])).toEqual([
      ['md5-colon', '--secret'],
      ['md5-colon', 'the "secret" of line 2'],
    ]);
    expect(out[0]!['signature']).toBe(signValues(CREATE_PAIRS, { secret: 's3cret', profile: 'md5-colon' }).signature);
    expect(out[1]!['signature']).toBe(signValues(CREATE_PAIRS, { secret: 'other', profile: 'md5-colon' }).signature);
  });

  it('a line that cannot be signed gets its line number (blank lines counted) and what to fix in its place, and the others are still signed', () => {
    const { out, failed } = batch([
      '\uFEFF{"fields":',
      '',
      { field: {} },
      { endpoint: 'create', fields: { ...CREATE, uuid: 'u-1' } },
      { endpoint: 'refund', fields: CREATE },
      { secret: '', fields: CREATE },
      { profile: 'no-such-profile', fields: CREATE },
      { fields: { ...CREATE, [`merchant=${MERCHANT}`]: 'x' } },
      { fields: CREATE },
    ]);
    expect(failed).toBe(7);
    expect(out.slice(0, 7)).toEqual([
      { line: 1, error: expect.stringMatching(/^not JSON \(.+\)\. Each line is one request, for example \{/) },
      { line: 3, error: '"field": not a key of a request. Its keys: endpoint, profile, secret and fields (the request\'s fields as an object).' },
      { line: 4, error: expect.stringMatching(/"uuid" is not part of the create signature.* For a get request give "endpoint": "get"\.$/) },
      { line: 5, error: '"endpoint" must be create, build or get; got "refund".' },
      { line: 6, error: '"secret" must be a string that is not empty; leave it out to use the flag\'s. Got "".' },
      { line: 7, error: expect.stringContaining('no-such-profile') },
      // A field's name is taken whole, never split at an "=".
      { line: 8, error: expect.stringMatching(/^"merchant=6f1c.*" is not part of the create signature/) },
    ]);
    expect(out[7]).toEqual(signValues(CREATE_PAIRS, {}));
  });

  it("a line's messages name its keys, never sign's flags; sign's own say them as before", () => {
    const unknown = '2c9d7e41-5b6a-4f38-9e0d-7a1b3c5d7e9f';
    const { out, failed } = batch([{ fields: { ...CREATE, merchant: unknown } }, { fields: { order: 'o-1' } }, { fields: CREATE, secret: 's' }]);
    expect(failed).toBe(2);
    expect(out.slice(0, 2)).toEqual([
      { line: 1, error: `a "secret" is required: merchant ${unknown} is not in the bundled fixtures. Give the merchant's secret as the line's "secret" (or --secret <secret> for every line).` },
      { line: 2, error: 'a "secret" is required (the merchant\'s HMAC key), or give the "merchant" field of a merchant in the fixtures to use its secret.' },
    ]);
    expect(() => signValues(['order=o-1'], {})).toThrow("--secret is required (the merchant's HMAC key), or pass merchant=<id> of a merchant in the fixtures to use its secret.");
    expect(() => signValues([...CREATE_PAIRS, 'uuid=u-1'], {})).toThrow(/ For a get request pass --endpoint get\.$/);
  });

  it('fixtures that cannot be read fail each line that needs them, and the lines with a secret are still signed', () => {
    const { out, failed } = batch([{ fields: CREATE }, { fields: CREATE, secret: 's' }, { fields: CREATE }], { fixtures: '/nonexistent/merchants.json' });
    expect(failed).toBe(2);
    expect(out[0]).toEqual({ line: 1, error: expect.stringContaining('/nonexistent/merchants.json') });
    expect(out[2]).toEqual({ ...out[0], line: 3 });
    expect(out[1]).toMatchObject({ signature: signValues(CREATE_PAIRS, { secret: 's' }).signature });
  });

  it('a byte order mark before the first line is ignored', () => {
    expect(batch([`\uFEFF${JSON.stringify({ fields: CREATE })}`]).out).toEqual([signValues(CREATE_PAIRS, {})]);
  });
});

describe('sign --batch as the command runs it', () => {
  it('reads the input to its end, and says how many lines could not be signed', async () => {
    const run = await command([], { secret: 's3cret' }, `${text([{ fields: CREATE }, { fields: { nope: 1 } }])}\n`);
    expect(run.failed).toBe(1);
    expect(run.out.split('\n')).toHaveLength(3);
    expect(run.warned).toBe('deposit-sandbox sign --batch: 1 request could not be signed; its line says why.\n');
  });

  it('refuses before it reads anything: arguments, --workspace (naming DEPOSIT_SANDBOX_WORKSPACE when it came from there), --body, a terminal, a flag profile it cannot use', async () => {
    await expect(command([`merchant=${MERCHANT}`], {}, unread)).rejects.toThrow(/belong in the "fields" of a line/);
    await expect(command([], { workspace: 'w1' }, unread)).rejects.toThrow(/^--workspace was given, and --batch signs here/);
    await expect(command([], { workspace: 'w1', workspaceFromEnv: true }, unread)).rejects.toThrow(
      /^DEPOSIT_SANDBOX_WORKSPACE is set \(w1\), and --batch signs here.*env -u DEPOSIT_SANDBOX_WORKSPACE/,
    );
    await expect(command([], { body: '{}' }, unread)).rejects.toThrow(/not with --body/);
    await expect(command([], {}, unread, true)).rejects.toThrow(/pipe them in/);
    await expect(command([], { profile: 'no-such-profile' }, unread)).rejects.toMatchObject({ name: 'ProfileError' });
    // The input above is one that fails when read: with a usable set of flags, it is read.
    await expect(command([], {}, unread)).rejects.toThrow('standard input was read');
  });

  it('refuses input that is not UTF-8 (a Cyrillic name in Windows-1251), signing nothing', async () => {
    const line = Buffer.concat([Buffer.from(JSON.stringify({ fields: CREATE }).replace('}}', ',"customer":"')), Buffer.from([0xc8, 0xe2, 0xe0, 0xed]), Buffer.from('"}}\n')]);
    let out = '';
    await expect(
      signBatchCommand(
        [],
        { secret: 's3cret' },
        Object.assign(Readable.from([line]), { isTTY: false }),
        (chunk) => (out += chunk),
        () => undefined,
      ),
    ).rejects.toThrow(/^--batch reads UTF-8 text, and standard input is not/);
    expect(out).toBe('');
  });

  it('a character split between two chunks of the input is read whole', async () => {
    const line = Buffer.from(`${JSON.stringify({ fields: { ...CREATE, customer: 'Иван Петров' } })}\n`);
    // Inside the first "И" (two bytes in UTF-8).
    const at = line.indexOf(Buffer.from('И')) + 1;
    const run = await command([], { secret: 's3cret' }, [line.subarray(0, at), line.subarray(at)]);
    expect(run.failed).toBe(0);
    expect(JSON.parse(run.out)).toEqual(signValues([...CREATE_PAIRS, 'customer=Иван Петров'], { secret: 's3cret' }));
  });
});
