/**
 * GET /_sandbox/session.har (src/sessions/session-har.ts): HAR 1.2 valid against the HAR JSON
 * Schema (har-schema), callbacks marked in _sandbox, credentials masked; serve --record-dir writes
 * one file per workspace when the server stops and when a workspace is removed;
 * deposit-sandbox session export.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect } from 'vitest';
import { sessionExportCommand } from '../../src/cli/session-export-command.js';
import { startSandbox } from '../../src/index.js';
import type { SessionHar } from '../../src/sessions/session-har.js';
import { type Receiver, startReceiver } from '../callbacks-receiver.js';
import { harProblems } from '../har-schema.js';
import { DEMO, makeSandbox, p2pBody, type TestSandbox } from '../support.js';
import { it } from '../temp-folder.js';

let t: TestSandbox | undefined;
let receiver: Receiver | undefined;
afterEach(async () => {
  await t?.close();
  await receiver?.close();
  t = undefined;
  receiver = undefined;
});

/** Creates, a payment, a callback that fails once and is delivered on its retry, a clock advance. */
async function session(sandbox: TestSandbox, base: string, url: string) {
  const trade = (await (await sandbox.post(`${base}/api/v1/trades/deposit/create`, p2pBody({ callback_url: `${url}/cb` }))).json()) as { id: string };
  await sandbox.post(`${base}/api/v1/trades/deposit/create`, p2pBody());
  expect((await sandbox.call('POST', `${base}/_sandbox/trades/${trade.id}/transition`, { state: 'confirmed' })).status).toBe(200);
  await sandbox.call('POST', `${base}/_sandbox/clock/advance`, { by: '0s' });
  await sandbox.call('POST', `${base}/_sandbox/clock/advance`, { by: '1s' });
  await sandbox.get(`${base}/api/v1/trades/${DEMO.id}/${trade.id}`);
  return trade;
}

const failOnce = () => startReceiver((_request, res) => void res.writeHead(receiver?.received.length === 1 ? 503 : 200).end(receiver?.received.length === 1 ? 'busy' : 'ok'));

describe('GET /_sandbox/session.har', () => {
  it('is HAR 1.2 valid against the HAR schema, in order, callbacks marked, nothing secret in it', async () => {
    t = await makeSandbox({ clock: 'manual', publicUrl: 'http://sandbox.test:4242' });
    receiver = await failOnce();
    const trade = await session(t, '/w/ci', receiver.url);
    const res = await t.app.request('/w/ci/_sandbox/session.har');
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Disposition')).toBe('attachment; filename="ci.har"');
    const text = await res.text();
    const har = JSON.parse(text) as SessionHar;
    expect(harProblems(har)).toEqual([]);
    expect(text).not.toContain(DEMO.token);
    expect(text).not.toContain(DEMO.secret);
    for (const got of receiver.received) expect(text).not.toContain(String(got.headers['x-signature']));

    const { log } = har;
    expect(log).toMatchObject({
      version: '1.2',
      creator: { name: 'deposit-sandbox' },
      _sandbox: { format: 'deposit-sandbox/session', version: 1, workspace: 'ci', clock: { mode: 'manual' }, seed: null, dropped: 0 },
    });
    expect(log.entries.map((entry) => `${entry.request.method} ${entry.request.url.replace(receiver?.url ?? '', 'RECEIVER')} ${entry.response.status}`)).toEqual([
      'POST http://sandbox.test:4242/w/ci/api/v1/trades/deposit/create 201',
      'POST http://sandbox.test:4242/w/ci/api/v1/trades/deposit/create 201',
      `POST http://sandbox.test:4242/w/ci/_sandbox/trades/${trade.id}/transition 200`,
      'POST RECEIVER/cb 503',
      'POST http://sandbox.test:4242/w/ci/_sandbox/clock/advance 200',
      'POST RECEIVER/cb 200',
      'POST http://sandbox.test:4242/w/ci/_sandbox/clock/advance 200',
      `GET http://sandbox.test:4242/w/ci/api/v1/trades/${DEMO.id}/${trade.id} 200`,
    ]);
    const [first, second] = log.entries.filter((entry) => entry._sandbox.direction === 'outbound');
    expect(first?._sandbox).toMatchObject({
      direction: 'outbound',
      event: `cb_${trade.id}_1`,
      attempt: 1,
      kind: 'delivery',
      sent: true,
      profile: 'sandbox',
      signatures: { 'X-Signature': expect.stringMatching(/^[0-9a-f]{64}$/) },
    });
    expect(second?._sandbox).toMatchObject({ attempt: 2, event: `cb_${trade.id}_1` });
    expect(first?.request.postData?.text).toBe(receiver.received[0]?.body);
    expect(first?.response.content.text).toBe('busy');
    expect(first?.comment).toMatch(/503/);
    expect(log._sandbox.clock_moves).toEqual([{ seq: expect.any(Number), at: expect.any(String), from: expect.any(String), to: expect.any(String), cause: 'POST /w/ci/_sandbox/clock/advance' }]);
    expect(Object.keys(log._sandbox.profiles)).toEqual(['sandbox']);
    // Inbound entries carry their place and sandbox time; a provider request says how it authenticated.
    expect(log.entries[0]?._sandbox).toMatchObject({ direction: 'inbound', seq: 1, clock: expect.any(String), auth: 'token' });
    expect(log.entries[0]?.request.headers).toContainEqual({ name: 'x-auth', value: '***' });
  });

  it('an empty session is a valid HAR with no entries', async () => {
    t = await makeSandbox();
    const har = (await (await t.app.request('/_sandbox/session.har')).json()) as SessionHar;
    expect(harProblems(har)).toEqual([]);
    expect(har.log.entries).toEqual([]);
  });
});

describe('serve --record-dir', () => {
  it('writes each workspace as <name>.har when it is removed and when the server stops, never over an earlier file', async ({ folder }) => {
    const dir = join(folder, 'sessions');
    t = await makeSandbox({ clock: 'manual', recordDir: dir });
    await t.post('/w/one/api/v1/trades/deposit/create', p2pBody());
    expect((await t.call('DELETE', '/w/one/_sandbox')).status).toBe(200);
    expect(readdirSync(dir)).toEqual(['one.har']);
    await t.post('/w/one/api/v1/trades/deposit/create', p2pBody());
    await t.post('/w/two/api/v1/trades/deposit/create', p2pBody());
    await t.close();
    t = undefined;
    expect(readdirSync(dir).sort()).toEqual(['default.har', 'one-2.har', 'one.har', 'two.har']);
    const two = JSON.parse(readFileSync(join(dir, 'two.har'), 'utf8')) as SessionHar;
    expect(harProblems(two)).toEqual([]);
    expect(two.log.entries).toHaveLength(1);
    expect(existsSync(join(dir, 'default.har'))).toBe(true);
  });
});

describe('deposit-sandbox session export', () => {
  it('writes the HAR of a workspace to a file and says what it holds', async ({ folder }) => {
    const sandbox = await startSandbox({ clock: 'manual' });
    try {
      await fetch(`${sandbox.url}/w/ci/api/v1/trades/deposit/create`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Auth': DEMO.token }, body: JSON.stringify(p2pBody()) });
      let printed = '';
      const file = join(folder, 'ci.har');
      await sessionExportCommand({ url: sandbox.url, source: 'flag', workspace: 'ci' }, { output: file }, (text) => {
        printed += text;
      });
      expect(printed).toBe(`Wrote the session of workspace ci of ${sandbox.url}/w/ci to ${file}: 1 request, 0 callback attempts, 0 clock moves.\n`);
      const har = JSON.parse(readFileSync(file, 'utf8')) as SessionHar;
      expect(harProblems(har)).toEqual([]);
      expect(har.log.entries[0]?.request.url).toBe(`${sandbox.url}/w/ci/api/v1/trades/deposit/create`);
    } finally {
      await sandbox.close();
    }
  });
});
