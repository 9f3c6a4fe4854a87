/**
 * Prototype pollution, in-process: `__proto__` / `constructor` / `prototype` in bodies, admin
 * bodies and queries, headers, path parameters, payment-page forms and the files a sandbox
 * loads. None supplies a field or reaches a prototype; stored data stays as it was.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { it } from './temp-folder.js';
import { ADMIN_BODY_LIMIT, MAX_JSON_DEPTH } from '../src/http/body.js';
import { createServer } from '../src/server/server.js';
import { BUILD, CREATE, hostileSuite, invalid, invalidJson, json, nested, prototypeShape } from './hostile-support.js';
import { DEMO, ecomBody, p2pBody, signatureOf } from './support.js';

const suite = hostileSuite();

describe('prototype pollution', () => {
  const smuggled = { merchant: DEMO.id, order: 'smuggled', amount_cents: 100, amount_currency: 'RUB', type: 'any_bank' };

  it('__proto__ / constructor / prototype keys cannot supply fields or reach a prototype', async () => {
    const missing = invalid('merchant', /merchant is required/);
    await suite.refused(CREATE, `{"__proto__":${json(smuggled)}}`, missing);
    await suite.refused(CREATE, `{"constructor":{"prototype":${json(smuggled)}}}`, missing);
    await suite.refused(CREATE, `{"prototype":${json(smuggled)}}`, missing);
    // With the merchant in place, every other field is still missing.
    const { merchant: _merchant, ...rest } = smuggled;
    await suite.refused(CREATE, `{"merchant":"${DEMO.id}","__proto__":${json(rest)}}`, {
      status: 422,
      code: 'validation_failed',
      message: /4 problems in fields order, amount_cents, amount_currency, type/,
    });
    await suite.refused(CREATE, `{"__proto__":{"polluted":"yes"},"merchant":{"__proto__":{"polluted":"yes"}}}`, invalid('merchant', /merchant must be your merchant UUID/));
  });

  it('a valid body carrying them is created without them', async () => {
    const body = json(p2pBody()).replace('{', '{"__proto__":{"polluted":"yes","state":"confirmed"},"constructor":{"prototype":{"polluted":"yes"}},');
    const res = await suite.t.post(CREATE, body);
    expect(res.status).toBe(201);
    const trade = (await res.json()) as Record<string, unknown>;
    expect(trade['state']).toBe('created');
    const record = suite.t.sandbox.store.trades.get(trade['id'] as string)!;
    expect(Object.getPrototypeOf(record)).toBe(Object.prototype);
    expect(JSON.stringify(record)).not.toContain('polluted');
  });

  it('in admin bodies and queries', async () => {
    const [existing] = [...suite.t.sandbox.store.trades.values()];
    const transition = `/_sandbox/trades/${existing!.id}/transition`;
    await suite.refused(transition, '{"__proto__":{"state":"confirmed"}}', invalid('state', /must be one of/));
    await suite.refused(transition, '{"constructor":{"prototype":{"state":"confirmed"}}}', invalid('state', /must be one of/));
    await suite.refused(transition, '{"state":"__proto__"}', { status: 422, code: 'validation_failed', message: /Unknown state "__proto__"/ });
    await suite.refused(transition, `{"state":${nested(MAX_JSON_DEPTH + 1)}}`, invalidJson(/levels deep/));
    await suite.refused(transition, json({ state: 'confirmed', note: 'n'.repeat(ADMIN_BODY_LIMIT + 1) }), {
      status: 413,
      code: 'body_too_large',
      message: new RegExp(`larger than ${ADMIN_BODY_LIMIT} bytes`),
    });
    await suite.refused(transition, '{"state":"confirmed","state":"canceled"}', invalidJson(/"state" more than once/));
    for (const by of ['"__proto__"', '"constructor"', '1e309', '"1e309"', '-1', '"-5m"', '{"__proto__":"10m"}']) {
      await suite.refused('/_sandbox/clock/advance', `{"by":${by}}`, invalid('by', /duration|must be/));
    }
    await suite.refused('/_sandbox/clock/advance', '{"__proto__":{"by":"10m"}}', invalid('by', /duration|must be/));
    for (const query of ['?__proto__=1&__proto__=2', '?constructor=x&limit=__proto__', '?state=constructor', '?merchant=__proto__&order=toString']) {
      const res = await suite.t.get(`/_sandbox/trades${query}`);
      expect([200, 422], query).toContain(res.status);
    }
  });

  it('in the scenario header and in path parameters', async () => {
    for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'prototype']) {
      await suite.refused(CREATE, json(p2pBody()), { status: 422, code: 'unknown_scenario', message: /no scenario has that name/, field: 'X-Sandbox-Scenario' }, { 'X-Sandbox-Scenario': name });
    }
    for (const path of ['/_sandbox/trades/__proto__', '/_sandbox/callbacks/__proto__', '/_sandbox/callbacks/constructor', `/api/v1/trades/${DEMO.id}/__proto__`, '/pay/__proto__']) {
      const res = await suite.t.get(path, { 'X-Token': signatureOf('get', { merchant: DEMO.id, uuid: '__proto__' }) });
      expect(res.status, path).toBe(404);
    }
    const replay = await suite.t.app.request('/_sandbox/callbacks/__proto__/replay', { method: 'POST' });
    expect(replay.status).toBe(404);
  });

  it('in payment page forms', async () => {
    const trade = (await (await suite.t.post(BUILD, ecomBody())).json()) as { id: string };
    const res = await suite.t.app.request(`/pay/${trade.id}/pay`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: '__proto__[polluted]=yes&constructor[prototype][polluted]=yes&__proto__=x&number=4000+0000+0000+0002&expiry=12%2F39&cvc=123',
    });
    expect(res.status).toBe(303);
    expect(suite.t.sandbox.store.trades.get(trade.id)?.state).toBe('canceled');
    await suite.refused(
      `/pay/${trade.id}/pay`,
      `number=${'4'.repeat(20 * 1024)}`,
      { status: 413, code: 'body_too_large', message: /larger than 16384 bytes/ },
      { 'Content-Type': 'application/x-www-form-urlencoded' },
    );
  });
});

describe('prototype keys in the files a sandbox loads', () => {
  it('a scenario file with __proto__ / constructor keys is refused naming file, line and field', async ({ folder: dir }) => {
    suite.prototypes = prototypeShape();
    mkdirSync(join(dir, 'scenarios'));
    const file = join(dir, 'scenarios', 'evil.yaml');
    writeFileSync(
      file,
      [
        '__proto__:',
        '  polluted: yes',
        'scenarios:',
        '  - name: evil',
        '    description: hostile keys',
        '    constructor:',
        '      prototype:',
        '        polluted: yes',
        '    match:',
        '      order: "^evil-"',
        '',
      ].join('\n'),
    );
    await expect(createServer({ inMemory: true, scenarios: join(dir, 'scenarios') })).rejects.toThrow(
      /evil\.yaml:1:1: __proto__: is not a field here[\s\S]*evil\.yaml:6:5: scenarios\[0\]\.constructor: is not a field here/,
    );
    const fixtures = join(dir, 'merchants.json');
    writeFileSync(
      fixtures,
      `{"__proto__":{"polluted":"yes"},"merchants":[{"__proto__":{"polluted":"yes"},"id":"${DEMO.id}","name":"Demo","token":"${DEMO.token}","secret":"${DEMO.secret}","rate":92.5}]}`,
    );
    const server = await createServer({ inMemory: true, fixtures }).catch((error: Error) => error);
    if (server instanceof Error) expect(server.message).toMatch(/merchants\.json/);
    else {
      expect(JSON.stringify(server.root.merchants.list())).not.toContain('polluted');
      await server.close();
    }
  });
});
