import { createHash, createHmac } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO, errorOf, makeSandbox, p2pBody, SECOND, type TestSandbox } from '../support.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { createApp } from '../../src/app.js';
import { ProfileError } from '../../src/profile/profile-error.js';
import { test as withFolder } from '../temp-folder.js';

// The provider profile on the three endpoints: where the signature travels and how it is made,
// the error body, the duplicate-order answer, and setting a workspace's own profile over HTTP.
// Signatures here are computed apart from the product's code, with node:crypto.

const open: TestSandbox[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((t) => t.close()));
});

async function sandbox(options: Parameters<typeof makeSandbox>[0] = {}): Promise<TestSandbox> {
  const t = await makeSandbox(options);
  open.push(t);
  return t;
}

const SLOTS = ['amount_cents', 'amount_currency', 'callback_url', 'cusotmer', 'merchant', 'order', 'return_url', 'type'] as const;
const slotsOf = (body: Record<string, unknown>) => SLOTS.map((field) => (body[field] === undefined ? '' : String(body[field])));

const putProfile = (t: TestSandbox, text: string, base = '') => t.app.request(`${base}/_sandbox/profile`, { method: 'PUT', headers: { 'Content-Type': 'text/yaml' }, body: text });

describe('hmac-sha512-base64: the token in X-Auth, the signature in X-Signature', () => {
  const signed = (body: Record<string, unknown>, secret: string = DEMO.secret) => createHmac('sha512', secret).update(slotsOf(body).join('::')).digest('base64');

  it('takes a create signed in X-Signature beside the token, and refuses a wrong one with the string to sign', async () => {
    const t = await sandbox({ profile: 'hmac-sha512-base64', auth: 'signature' });
    const body = p2pBody();
    const good = await t.post('/api/v1/trades/deposit/create', body, { 'X-Signature': signed(body) });
    expect(good.status).toBe(201);

    const wrong = await t.post('/api/v1/trades/deposit/create', p2pBody(), { 'X-Signature': signed(body, SECOND.secret) });
    expect(wrong.status).toBe(401);
    const error = await errorOf(wrong);
    expect(error.code).toBe('signature_mismatch');
    expect(error.message).toContain('base64 HMAC-SHA512 of the string to sign');
    expect(error.signature).toMatchObject({ header: 'X-Signature', algorithm: 'HMAC-SHA512, base64' });
  });

  it('names X-Signature when it is missing, and still takes the token alone under --auth either', async () => {
    const strict = await sandbox({ profile: 'hmac-sha512-base64', auth: 'signature' });
    const missing = await strict.post('/api/v1/trades/deposit/create', p2pBody());
    expect(missing.status).toBe(401);
    const error = await errorOf(missing);
    expect(error.code).toBe('missing_signature');
    expect(error.message).toContain('signs requests in X-Signature, beside the token in X-Auth');

    const either = await sandbox({ profile: 'hmac-sha512-base64' });
    expect((await either.post('/api/v1/trades/deposit/create', p2pBody())).status).toBe(201);
  });
});

describe('plain hashes with the secret as the last slot', () => {
  it('sha256-secret-last: the signature of a create in X-Auth', async () => {
    const t = await sandbox({ profile: 'sha256-secret-last', auth: 'signature' });
    const body = p2pBody();
    const signature = createHash('sha256')
      .update([...slotsOf(body), DEMO.secret].join('::'))
      .digest('hex');
    expect((await t.post('/api/v1/trades/deposit/create', body, { 'X-Auth': signature })).status).toBe(201);
    const refused = await t.post('/api/v1/trades/deposit/create', p2pBody(), { 'X-Auth': signature });
    expect(refused.status).toBe(401);
    const error = await errorOf(refused);
    expect(error.signature?.string_to_sign).toMatch(/::<secret>$/);
    expect(JSON.stringify(error)).not.toContain(DEMO.secret);
  });

  it('md5-colon: a get signed with MD5 of merchant:uuid:secret in X-Token', async () => {
    const t = await sandbox({ profile: 'md5-colon', auth: 'signature' });
    const body = p2pBody();
    const signature = createHash('md5')
      .update([...slotsOf(body), DEMO.secret].join(':'))
      .digest('hex');
    const created = await t.post('/api/v1/trades/deposit/create', body, { 'X-Auth': signature });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const read = await t.get(`/api/v1/trades/${DEMO.id}/${id}`, { 'X-Token': createHash('md5').update(`${DEMO.id}:${id}:${DEMO.secret}`).digest('hex').toUpperCase() });
    expect(read.status).toBe(200);
    // The sandbox's own signature is not this profile's.
    const sandboxStyle = createHmac('sha256', DEMO.secret).update(`${DEMO.id}::${id}`).digest('hex');
    expect((await t.get(`/api/v1/trades/${DEMO.id}/${id}`, { 'X-Token': sandboxStyle })).status).toBe(401);
  });
});

describe('the duplicate-order answer', () => {
  it('names the earlier trade under sandbox, and only says the order was used under strict', async () => {
    for (const [profile, names] of [
      ['sandbox', true],
      ['strict', false],
    ] as const) {
      const t = await sandbox({ profile });
      const body = p2pBody();
      const first = (await (await t.post('/api/v1/trades/deposit/create', body)).json()) as { id: string };
      const again = await t.post('/api/v1/trades/deposit/create', body);
      expect(again.status).toBe(422);
      const error = await errorOf(again);
      expect(error.code).toBe('duplicate_order');
      expect(error.message.includes(first.id)).toBe(names);
    }
  });
});

describe("errors.body: the three endpoints answer in the profile's shape", () => {
  const PROFILE = `name: wrapped\nextends: sandbox\nerrors:\n  body: '{"ok":false,"code":{{code}},"text":{{message}},"status":{{status}}}'\n`;

  it('shapes 401, 404 and 422 of the provider endpoints as /openapi.json then says; the admin API keeps the envelope', async () => {
    const t = await sandbox();
    // The suite's app checks answers against the sandbox profile's document; this one is checked against the workspace's own below.
    const app = createApp(t.server);
    expect((await app.request('/_sandbox/profile', { method: 'PUT', body: PROFILE })).status).toBe(200);
    const doc = (await (await app.request('/openapi.json')).json()) as { components: { schemas: Record<string, object> } };
    const ajv = new Ajv2020({ strict: false });
    const conforms = ajv.compile(doc.components.schemas['ProviderError'] ?? {});

    const post = (body: unknown, headers: Record<string, string> = {}) =>
      app.request('/api/v1/trades/deposit/create', { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Auth': DEMO.token, ...headers }, body: JSON.stringify(body) });
    const unauthorized = await post(p2pBody(), { 'X-Auth': 'nope' });
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers.get('content-type')).toMatch(/^application\/json/);
    const shaped = (await unauthorized.json()) as Record<string, unknown>;
    expect(Object.keys(shaped)).toEqual(['ok', 'code', 'text', 'status']);
    expect(shaped).toMatchObject({ ok: false, code: 'signature_mismatch', status: 401 });
    expect(conforms(shaped)).toBe(true);

    const invalid = (await (await post(p2pBody({ amount_cents: 'ten' }))).json()) as Record<string, unknown>;
    expect(invalid).toMatchObject({ ok: false, code: 'validation_failed', status: 422 });
    expect(conforms(invalid)).toBe(true);

    const missing = (await (await app.request(`/api/v1/trades/${DEMO.id}/00000000-0000-4000-8000-000000000000`, { headers: { 'X-Token': DEMO.token } })).json()) as Record<string, unknown>;
    expect(missing).toMatchObject({ ok: false, code: 'not_found', status: 404 });
    expect(conforms(missing)).toBe(true);
    expect(conforms({ error: missing })).toBe(false);

    const admin = await app.request('/_sandbox/trades/00000000-0000-4000-8000-000000000000');
    expect(admin.status).toBe(404);
    expect(Object.keys((await admin.json()) as object)).toEqual(['error']);
  });

  it('/openapi.json of the sandbox profile has no ProviderError, and one of a signature header names it', async () => {
    const t = await sandbox();
    const plain = (await (await t.app.request('/openapi.json')).json()) as { components: { schemas: object; securitySchemes: object } };
    expect(Object.keys(plain.components.schemas)).not.toContain('ProviderError');
    expect(Object.keys(plain.components.securitySchemes)).not.toContain('Signature');
    await putProfile(t, 'name: signed\nextends: hmac-sha512-base64\n');
    const signed = (await (await createApp(t.server).request('/openapi.json')).json()) as {
      components: { securitySchemes: Record<string, { name?: string }> };
      paths: Record<string, Record<string, { security: object[] }>>;
    };
    expect(signed.components.securitySchemes['Signature']?.name).toBe('X-Signature');
    expect(signed.paths['/api/v1/trades/deposit/create']?.['post']?.security).toEqual([{ XAuth: [] }, { XAuth: [], Signature: [] }]);
  });
});

describe('GET, PUT and DELETE /_sandbox/profile', () => {
  it("answers the server's profile, sets a workspace's own without touching the others, and goes back", async () => {
    const t = await sandbox({ profile: 'strict' });
    const first = (await (await t.app.request('/_sandbox/profile')).json()) as { workspace: string; source: string; profile: { name: string } };
    expect(first).toMatchObject({ workspace: 'default', source: 'server', profile: { name: 'strict' } });

    const set = await putProfile(t, 'name: team-a\nextends: md5-colon\n', '/w/team-a');
    expect(set.status).toBe(200);
    expect(await set.json()).toMatchObject({ workspace: 'team-a', source: 'workspace', profile: { name: 'team-a', requests: { signature: { algorithm: 'md5' } } } });
    expect(((await (await t.app.request('/_sandbox/profile')).json()) as { profile: { name: string } }).profile.name).toBe('strict');

    const cleared = await t.app.request('/w/team-a/_sandbox/profile', { method: 'DELETE' });
    expect(await cleared.json()).toMatchObject({ workspace: 'team-a', source: 'server', profile: { name: 'strict' } });
  });

  it('refuses an invalid profile with 422, its line, column and key, and changes nothing', async () => {
    const t = await sandbox();
    expect((await putProfile(t, 'name: mine\nextends: sandbox\ncallbacks:\n  acknowledge: ok-text\n')).status).toBe(200);
    const refused = await putProfile(t, 'name: mine\nextends: sandbox\ncallbacks:\n  acknowledge: okay\n');
    expect(refused.status).toBe(422);
    const error = await errorOf(refused);
    expect(error.code).toBe('invalid_profile');
    expect(error.details[0]).toEqual({ field: 'line 4 column 16 callbacks.acknowledge', message: expect.stringContaining('2xx | ok-text | code-zero') });
    const after = (await (await t.app.request('/_sandbox/profile')).json()) as { profile: { callbacks: { acknowledge: string } } };
    expect(after.profile.callbacks.acknowledge).toBe('ok-text');
  });

  it('an unknown built-in stops the server with the list of built-ins', async () => {
    await expect(makeSandbox({ profile: 'sandbx' })).rejects.toThrow(ProfileError);
    await expect(makeSandbox({ profile: 'sandbx' })).rejects.toThrow(/did you mean sandbox\?.*The built-ins: sandbox, sha256-secret-last/s);
  });
});

withFolder("a workspace's own profile survives a restart of a durable sandbox", async ({ folder }) => {
  const first = await makeSandbox({ inMemory: false, data: folder });
  expect((await putProfile(first, 'name: kept\nextends: strict\n')).status).toBe(200);
  await first.close();
  const second = await makeSandbox({ inMemory: false, data: folder });
  open.push(second);
  const answer = (await (await second.app.request('/_sandbox/profile')).json()) as { source: string; profile: { name: string } };
  expect(answer).toMatchObject({ source: 'workspace', profile: { name: 'kept' } });
});
