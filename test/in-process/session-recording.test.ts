/**
 * The session each workspace records (src/sessions/, src/http/record-session.ts) through the app
 * (app.request(), manual clock, a loopback receiver): requests with their answers as the client got
 * them, callbacks with what went on the wire, clock moves, scenario picks; credentials masked; the
 * bound; --no-record.
 */
import { createHash, createHmac } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { type ResolvedEntry, type ResolvedRequest, resolveEntries } from '../../src/sessions/resolve-entry.js';
import type { CallbackEntry, ClockEntry } from '../../src/sessions/session-recorder.js';
import { startSandbox } from '../../src/index.js';
import { type Receiver, startReceiver } from '../callbacks-receiver.js';
import { DEMO, ecomBody, makeSandbox, p2pBody, signatureOf, type TestSandbox } from '../support.js';

let t: TestSandbox | undefined;
let receiver: Receiver | undefined;
afterEach(async () => {
  await t?.close();
  await receiver?.close();
  t = undefined;
  receiver = undefined;
});

const requests = (entries: ResolvedEntry[]) => entries.filter((entry): entry is ResolvedRequest => entry.type === 'request');
const header = (headers: readonly (readonly [string, string])[], name: string) => headers.find(([n]) => n.toLowerCase() === name.toLowerCase())?.[1];

describe('what a session records', () => {
  it('requests with the answers as the client got them, callbacks as sent, and clock moves, in order', async () => {
    t = await makeSandbox({ clock: 'manual', seed: 7 });
    receiver = await startReceiver((_request, res) => void res.writeHead(receiver?.received.length === 1 ? 500 : 200).end(receiver?.received.length === 1 ? 'down' : 'ok'));
    const created = await t.post('/w/qa/api/v1/trades/deposit/create', p2pBody({ callback_url: `${receiver.url}/cb` }));
    const createdText = await created.text();
    const trade = JSON.parse(createdText) as { id: string };
    const built = await t.post('/w/qa/api/v1/trades/deposit/build', ecomBody());
    const builtText = await built.text();
    const read = await t.get(`/w/qa/api/v1/trades/${DEMO.id}/${trade.id}`);
    const readText = await read.text();
    expect((await t.call('POST', `/w/qa/_sandbox/trades/${trade.id}/transition`, { state: 'confirmed' })).status).toBe(200);
    await t.call('POST', '/w/qa/_sandbox/clock/advance', { by: '0s' });
    await t.call('POST', '/w/qa/_sandbox/clock/advance', { by: '1s' });
    await receiver.waitFor(2);

    const sandbox = await t.server.workspaces.open('qa');
    if (!sandbox.ok) throw new Error(sandbox.message);
    expect(sandbox.sandbox.session.info).toMatchObject({ workspace: 'qa', clockMode: 'manual', seed: 7 });
    const entries = await resolveEntries(sandbox.sandbox);
    expect(
      entries.map((entry) =>
        entry.type === 'request' ? `${entry.method} ${entry.url.split('?')[0]} ${entry.status}` : entry.type === 'callback' ? `callback ${entry.attempt} ${entry.status}` : 'clock',
      ),
    ).toEqual([
      'POST /w/qa/api/v1/trades/deposit/create 201',
      'POST /w/qa/api/v1/trades/deposit/build 201',
      `GET /w/qa/api/v1/trades/${DEMO.id}/${trade.id} 200`,
      `POST /w/qa/_sandbox/trades/${trade.id}/transition 200`,
      'callback 1 500',
      'POST /w/qa/_sandbox/clock/advance 200',
      'callback 2 200',
      'POST /w/qa/_sandbox/clock/advance 200',
      'clock',
    ]);
    expect(entries.map((entry) => (entry.type === 'clock' ? entry.seq : entry.seq))).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);

    // The answers of the provider endpoints are the bytes the client got.
    const [create, build, get] = requests(entries);
    expect(create?.responseBody).toBe(createdText);
    expect(build?.responseBody).toBe(builtText);
    expect(get?.responseBody).toBe(readText);
    expect(create?.requestBody).toBe(JSON.stringify(p2pBody({ order: JSON.parse(create?.requestBody ?? '{}').order, callback_url: `${receiver.url}/cb` })));
    expect(header(create?.requestHeaders ?? [], 'X-Auth')).toBe('***');
    expect(create?.auth).toBe('token');
    expect(header(create?.responseHeaders ?? [], 'content-type')).toMatch(/application\/json/);

    // The callback attempts: the body and headers sent, the signature masked with its SHA-256 kept.
    const callbacks = entries.filter((entry): entry is CallbackEntry => entry.type === 'callback');
    expect(callbacks).toHaveLength(2);
    for (const [i, entry] of callbacks.entries()) {
      const got = receiver.received[i];
      if (!got) throw new Error('no request');
      expect(entry.body).toBe(got.body);
      expect(entry).toMatchObject({ event: `cb_${trade.id}_1`, trade: trade.id, attempt: i + 1, kind: 'delivery', sent: true, url: `${receiver.url}/cb`, profile: 'sandbox' });
      expect(header(entry.requestHeaders, 'X-Signature')).toBe('***');
      expect(entry.signatures['X-Signature']).toBe(createHash('sha256').update(String(got.headers['x-signature'])).digest('hex'));
      expect(header(entry.requestHeaders, 'X-Sandbox-Event-Id')).toBe(got.headers['x-sandbox-event-id']);
      expect(header(entry.requestHeaders, 'Content-Length')).toBe(got.headers['content-length']);
    }
    expect(callbacks.map((entry) => [entry.status, entry.response])).toEqual([
      [500, 'down'],
      [200, 'ok'],
    ]);
    const clock = entries.at(-1) as ClockEntry;
    expect(Date.parse(clock.to) - Date.parse(clock.from)).toBe(1000);
    expect(clock.cause).toBe('POST /w/qa/_sandbox/clock/advance');
  });

  it('records the scenario that took a request, a refusal, and an answer lost on purpose as status 0', async () => {
    t = await makeSandbox({ clock: 'manual' });
    await t.post('/api/v1/trades/deposit/create', p2pBody({ order: 'sbx-confirm-1' }));
    await t.post('/api/v1/trades/deposit/create', p2pBody({ order: 'sbx-reject-1' }));
    await t.post('/api/v1/trades/deposit/create', p2pBody({ order: 'sbx-lost-1' })).catch(() => undefined);
    await t.post('/api/v1/trades/deposit/create', p2pBody(), { 'X-Auth': 'wrong' });
    const entries = requests(await resolveEntries(t.sandbox));
    expect(entries.map((entry) => [entry.status, entry.scenario])).toEqual([
      [201, 'confirm'],
      [422, 'reject'],
      [0, 'lost-answer'],
      [401, undefined],
    ]);
    expect(entries[1]?.responseBody).toMatch(/"code":"trade_rejected"/);
    expect(entries[3]?.auth).toBe('signature');
  });
});

/** What the client got over a socket: status, headers as sent (raw, in order), body. */
function send(url: string, method: string, headers: Record<string, string>, body?: string): Promise<{ status: number; headers: string[]; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.rawHeaders, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Headers Node's server adds to every answer itself, which the recording does not see. */
const NODE_ADDS = new Set(['connection', 'content-length', 'date', 'keep-alive', 'transfer-encoding']);

describe('over a socket', () => {
  it('the HAR holds the request headers as sent, in order, and the answer headers the client got', async () => {
    const sandbox = await startSandbox({ port: 0, clock: 'manual' });
    try {
      const body = JSON.stringify(p2pBody());
      const sent = { 'X-Trace': 'first', 'Content-Type': 'application/json', 'x-auth': DEMO.token, 'X-Trace-Two': 'a, b' };
      const created = await send(`${sandbox.url}/api/v1/trades/deposit/create`, 'POST', sent, body);
      const id = (JSON.parse(created.body) as { id: string }).id;
      const read = await send(`${sandbox.url}/api/v1/trades/${DEMO.id}/${id}`, 'GET', { 'X-Token': DEMO.token });
      const scenario = await send(`${sandbox.url}/api/v1/trades/deposit/create`, 'POST', sent, JSON.stringify(p2pBody({ order: 'sbx-reject-socket' })));
      const refused = await send(`${sandbox.url}/api/v1/trades/deposit/create`, 'POST', { ...sent, 'x-auth': 'wrong' }, JSON.stringify(p2pBody()));
      const har = (await (await fetch(`${sandbox.url}/_sandbox/session.har`)).json()) as {
        log: { entries: { request: { headers: { name: string; value: string }[] }; response: { status: number; headers: { name: string; value: string }[]; content: { text: string } } }[] };
      };
      const answers = [created, read, scenario, refused];
      expect(har.log.entries.map((entry) => entry.response.status)).toEqual(answers.map((answer) => answer.status));
      expect(answers.map((answer) => answer.status)).toEqual([201, 200, 422, 401]);
      for (const [i, entry] of har.log.entries.entries()) {
        const got = answers[i]?.headers ?? [];
        const pairs: [string, string][] = [];
        for (let k = 0; k + 1 < got.length; k += 2) pairs.push([String(got[k]).toLowerCase(), String(got[k + 1])]);
        expect(
          entry.response.headers.map(({ name, value }) => [name.toLowerCase(), value]),
          `answer ${i}`,
        ).toEqual(pairs.filter(([name]) => !NODE_ADDS.has(name)));
        expect(entry.response.content.text, `answer ${i}`).toBe(answers[i]?.body);
      }
      const first = har.log.entries[0]?.request.headers ?? [];
      expect(first.map(({ name }) => name).slice(0, 5)).toEqual(['X-Trace', 'Content-Type', 'x-auth', 'X-Trace-Two', 'Host']);
      expect(first.find(({ name }) => name === 'X-Trace-Two')?.value).toBe('a, b');
      expect(first.find(({ name }) => name === 'x-auth')?.value).toBe('***');
    } finally {
      await sandbox.close();
    }
  });
});

describe('masking', () => {
  it('masks tokens, secrets and signatures wherever they stand: headers, admin bodies, a value sent by mistake', async () => {
    t = await makeSandbox({ clock: 'manual', auth: 'either' });
    const added = (await (await t.call('POST', '/_sandbox/merchants', { name: 'Own', token: 'own-token-1234', secret: 'own-secret-5678' })).json()) as { merchant: { id: string } };
    await t.app.request('/_sandbox/merchants');
    const body = p2pBody({ order: `leaked-${DEMO.secret}` });
    const signature = signatureOf('create', body);
    await t.post('/api/v1/trades/deposit/create', body, { 'X-Auth': signature });
    await t.call('POST', `/_sandbox/merchants/${added.merchant.id}/sign`, { string_to_sign: 'a::b' });
    const entries = requests(await resolveEntries(t.sandbox));
    const text = JSON.stringify(entries);
    for (const secret of [DEMO.secret, DEMO.token, 'own-token-1234', 'own-secret-5678', signature, createHmac('sha256', 'own-secret-5678').update('a::b').digest('hex')]) {
      expect(text, secret).not.toContain(secret);
    }
    expect(entries[0]?.requestBody).toContain('"secret":"***"');
    expect(entries[0]?.responseBody).toContain('"token":"***"');
    expect(entries[2]?.auth).toBe('signature');
    expect(entries[2]?.requestBody).toContain('"order":"leaked-***"');
    expect(entries[3]?.responseBody).toContain('"signature":"***"');
  });

  it('keeps masking the credentials of merchants a state import removed', async () => {
    t = await makeSandbox({ clock: 'manual' });
    await t.call('POST', '/_sandbox/merchants', { name: 'Gone', token: 'gone-token-1234', secret: 'gone-secret-5678' });
    const empty = await (await t.app.request('/w/empty/_sandbox/state')).json();
    expect((await t.call('PUT', '/_sandbox/state', empty)).status).toBe(200);
    const text = JSON.stringify(await resolveEntries(t.sandbox));
    expect(text).not.toContain('gone-secret-5678');
    expect(text).not.toContain('gone-token-1234');
  });
});

describe('the bound and --no-record', () => {
  it('keeps at most --record-limit bytes, dropping the oldest entries first', async () => {
    t = await makeSandbox({ recordLimit: '16KB' });
    for (let i = 0; i < 60; i++) await t.post('/api/v1/trades/deposit/create', p2pBody());
    const session = t.sandbox.session;
    expect(session.bytes).toBeLessThanOrEqual(16 * 1024);
    expect(session.dropped).toBeGreaterThan(0);
    const entries = session.entries();
    expect(entries.length + session.dropped).toBe(60);
    expect(entries.at(-1)?.seq).toBe(60);
    expect(entries[0]?.seq).toBe(session.dropped + 1);
  });

  it('records nothing with --no-record, and the sandbox works as before', async () => {
    t = await makeSandbox({ record: false });
    expect((await t.post('/api/v1/trades/deposit/create', p2pBody())).status).toBe(201);
    expect(t.sandbox.session.enabled).toBe(false);
    expect(t.sandbox.session.entries()).toEqual([]);
  });

  it('refuses a --record-limit that is not a size, or below 16KB', async () => {
    await expect(makeSandbox({ recordLimit: 'lots' })).rejects.toThrow(/--record-limit: must be a size such as "10MB"/);
    await expect(makeSandbox({ recordLimit: '1KB' })).rejects.toThrow(/--record-limit: must be at least 16KB/);
  });
});
