import { afterEach, describe, expect, it } from 'vitest';
import { DEMO, ecomBody, errorOf, makeSandbox, nextOrder, p2pBody, signatureOf, type TestSandbox } from '../../test/support.js';
import type { AuthMode } from '../auth/authenticate.js';
import { sign } from '../auth/signature.js';

const CREATE = '/api/v1/trades/deposit/create';
const BUILD = '/api/v1/trades/deposit/build';

const sandboxes: TestSandbox[] = [];
async function sandbox(auth: AuthMode): Promise<TestSandbox> {
  const t = await makeSandbox({ auth });
  sandboxes.push(t);
  return t;
}
afterEach(async () => {
  await Promise.all(sandboxes.splice(0).map((t) => t.close()));
});

/** POST a raw JSON text with exactly this X-Auth. */
function postRaw(t: TestSandbox, path: string, text: string, auth: string) {
  return t.app.request(path, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Auth': auth }, body: text });
}

describe('null on an optional create field means absent (signature mode)', () => {
  it('customer, callback_url and return_url null: 201, signed with empty slots, nothing stored for them', async () => {
    const t = await sandbox('signature');
    const order = nextOrder('py');
    const body = p2pBody({ order, customer: null, callback_url: null, return_url: null });
    // Python: "::".join(str(v) if v is not None else "" for v in ...): the slots are empty.
    const message = `31250::RUB::::::${DEMO.id}::${order}::::any_bank`;
    const res = await t.app.request(CREATE, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Auth': sign(DEMO.secret, message) }, body: JSON.stringify(body) });
    expect(res.status, await res.clone().text()).toBe(201);
    const { id } = (await res.json()) as { id: string };
    const stored = t.sandbox.store.trades.get(id);
    expect(stored).toBeDefined();
    expect(stored && ['customer', 'callback_url', 'return_url'].filter((key) => key in stored)).toEqual([]);
  });

  it('on build too, and cusotmer null beside a customer value is no conflict', async () => {
    const t = await sandbox('signature');
    const body = ecomBody({ customer: 'c-7', cusotmer: null, return_url: null });
    const res = await postRaw(t, BUILD, JSON.stringify(body), signatureOf('build', body));
    expect(res.status, await res.clone().text()).toBe(201);
    const { id } = (await res.json()) as { id: string };
    expect(t.sandbox.store.trades.get(id)?.customer).toBe('c-7');
  });

  it('a signature that put "null" in the slot is refused and shows the empty slot it should hold', async () => {
    const t = await sandbox('signature');
    const order = nextOrder('null-text');
    const body = p2pBody({ order, customer: null });
    const res = await postRaw(t, CREATE, JSON.stringify(body), sign(DEMO.secret, `31250::RUB::::null::${DEMO.id}::${order}::::any_bank`));
    expect(res.status).toBe(401);
    expect((await errorOf(res)).signature?.string_to_sign).toBe(`31250::RUB::::::${DEMO.id}::${order}::::any_bank`);
  });

  it('null stays a 422 on a required field, and a wrong type on an optional one still is', async () => {
    const t = await sandbox('token');
    const missing = await postRaw(t, CREATE, JSON.stringify(p2pBody({ order: null })), DEMO.token);
    expect(missing.status).toBe(422);
    const wrong = await postRaw(t, CREATE, JSON.stringify(p2pBody({ customer: 42 })), DEMO.token);
    expect(wrong.status).toBe(422);
    expect((await errorOf(wrong)).message).toContain('customer must be a string');
  });
});

describe('amount_cents written 100.0 (signature mode)', () => {
  const text = (order: string) => `{"merchant":"${DEMO.id}","order":"${order}","amount_cents":31250.0,"amount_currency":"RUB","type":"any_bank"}`;

  it('a body with 31250.0 signed over the integer is read as 31250 (JSON numbers carry no type)', async () => {
    const t = await sandbox('signature');
    const order = nextOrder('float');
    const res = await postRaw(t, CREATE, text(order), sign(DEMO.secret, `31250::RUB::::::${DEMO.id}::${order}::::any_bank`));
    expect(res.status, await res.clone().text()).toBe(201);
    expect(((await res.json()) as { amount_cents: unknown }).amount_cents).toBe(31250);
  });

  it.each(['signature', 'either'] as const)('--auth %s: signed over "31250.0", the 401 names that exact cause', async (mode) => {
    const t = await sandbox(mode);
    const order = nextOrder('float');
    const res = await postRaw(t, CREATE, text(order), sign(DEMO.secret, `31250.0::RUB::::::${DEMO.id}::${order}::::any_bank`));
    expect(res.status).toBe(401);
    const error = await errorOf(res);
    expect(error.code).toBe('signature_mismatch');
    expect(error.message).toMatch(/^amount_cents was written 31250\.0; the string to sign uses 31250: send an integer\./);
    expect(error.details).toEqual([{ field: 'amount_cents', message: 'written 31250.0; send the integer 31250' }]);
    expect(error.signature).toMatchObject({ string_to_sign: `31250::RUB::::::${DEMO.id}::${order}::::any_bank` });
  });

  it('an unrelated mismatch keeps the general message', async () => {
    const t = await sandbox('signature');
    const order = nextOrder('float');
    const res = await postRaw(t, CREATE, text(order), sign(DEMO.secret, `31250.5::RUB::::::${DEMO.id}::${order}::::any_bank`));
    expect(res.status).toBe(401);
    expect((await errorOf(res)).message).toMatch(/^X-Auth is not a valid signature\./);
  });
});
