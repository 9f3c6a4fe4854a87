/**
 * deposit-sandbox session replay (src/cli/session-replay-command.ts, src/sessions/): a session with
 * creates, a payment, a callback that fails and is delivered on its retry, and clock advances is
 * exported, checked against the HAR schema, replayed to a receiver that sees the same bytes and
 * signatures, and replayed to a fresh workspace with no difference; a changed answer is reported as
 * the first difference; files that are not a session, and a receiver that is not there, stop it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect } from 'vitest';
import { sessionExportCommand } from '../../src/cli/session-export-command.js';
import { ReplayStopped, sessionReplayCommand } from '../../src/cli/session-replay-command.js';
import { type RunningSandbox, startSandbox } from '../../src/index.js';
import type { SessionHar } from '../../src/sessions/session-har.js';
import { CLOSED_PORT, type Receiver, type Received, startReceiver } from '../callbacks-receiver.js';
import { harProblems } from '../har-schema.js';
import { DEMO, p2pBody } from '../support.js';
import { it } from '../temp-folder.js';

const opened: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const item of opened.splice(0).reverse()) await item.close();
});

/** A receiver that fails every first attempt (503) and takes every later one (200 OK): the same answers every time. */
async function receiverOf(firstAttempt = 503): Promise<Receiver> {
  const receiver = await startReceiver((request: Received, res) => {
    const first = request.headers['x-sandbox-attempt'] === '1';
    res.writeHead(first ? firstAttempt : 200).end(first ? 'busy' : 'ok');
  });
  opened.push(receiver);
  return receiver;
}

async function sandboxOf(): Promise<RunningSandbox> {
  const sandbox = await startSandbox({ clock: 'manual' });
  opened.push(sandbox);
  return sandbox;
}

const json = (sandbox: RunningSandbox, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
  fetch(`${sandbox.url}${path}`, { method, headers: { 'Content-Type': 'application/json', ...headers }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });

/** Records a session in workspace ci and exports it to `file`. */
async function recordSession(sandbox: RunningSandbox, receiver: Receiver, file: string): Promise<SessionHar> {
  const created = (await (await json(sandbox, 'POST', '/w/ci/api/v1/trades/deposit/create', p2pBody({ callback_url: `${receiver.url}/deposit-callback` }), { 'X-Auth': DEMO.token })).json()) as {
    id: string;
  };
  expect((await json(sandbox, 'POST', '/w/ci/api/v1/trades/deposit/create', p2pBody(), { 'X-Auth': DEMO.token })).status).toBe(201);
  // The payment: the trade is confirmed, and its callback queued.
  expect((await json(sandbox, 'POST', `/w/ci/_sandbox/trades/${created.id}/transition`, { state: 'confirmed', note: 'paid' })).status).toBe(200);
  await json(sandbox, 'POST', '/w/ci/_sandbox/clock/advance', { by: '0s' });
  await json(sandbox, 'POST', '/w/ci/_sandbox/clock/advance', { by: '1s' });
  expect((await fetch(`${sandbox.url}/w/ci/api/v1/trades/${DEMO.id}/${created.id}`, { headers: { 'X-Token': DEMO.token } })).status).toBe(200);
  expect((await json(sandbox, 'GET', `/w/ci/_sandbox/callbacks?trade=${created.id}`)).status).toBe(200);
  await sessionExportCommand({ url: sandbox.url, source: 'flag', workspace: 'ci' }, { output: file }, () => undefined);
  return JSON.parse(readFileSync(file, 'utf8')) as SessionHar;
}

describe('session replay', () => {
  it('a recorded session is valid HAR, replays byte for byte to a receiver and with no difference to a fresh workspace', async ({ folder }) => {
    const sandbox = await sandboxOf();
    const receiver = await receiverOf();
    const file = join(folder, 'ci.har');
    const har = await recordSession(sandbox, receiver, file);
    expect(harProblems(har)).toEqual([]);
    expect(receiver.received.map((r) => r.headers['x-sandbox-attempt'])).toEqual(['1', '2']);

    // To a receiver: the same bytes, signatures, event ids and attempts, in order.
    const again = await receiverOf();
    let printed = '';
    const toReceiver = await sessionReplayCommand(file, { toReceiver: again.url }, (text) => {
      printed += text;
    });
    expect(toReceiver).toEqual({ replayed: 2, skipped: 0 });
    expect(printed).toMatch(/^Replayed 2 callback attempts to .* every answer is as recorded\.\n$/);
    expect(again.received.map((r) => [r.path, r.body, r.headers['x-signature'], r.headers['x-sandbox-event-id'], r.headers['x-sandbox-attempt'], r.headers['x-sandbox-workspace']])).toEqual(
      receiver.received.map((r) => [r.path, r.body, r.headers['x-signature'], r.headers['x-sandbox-event-id'], r.headers['x-sandbox-attempt'], r.headers['x-sandbox-workspace']]),
    );

    // To a fresh workspace of another sandbox (its own port and ids): every answer as recorded.
    const other = await sandboxOf();
    const toSandbox = await sessionReplayCommand(file, { toSandbox: other.url, workspace: 'again' }, () => undefined);
    expect(toSandbox).toEqual({ replayed: 7, skipped: 0 });
    const state = (await (await json(other, 'GET', '/w/again/_sandbox/state')).json()) as { trades: Array<{ state: string }>; callbacks: Array<{ status: string }> };
    expect(state.trades.map((t) => t.state).sort()).toEqual(['confirmed', 'created']);
    expect(state.callbacks.map((c) => c.status)).toEqual(['delivered']);
  });

  it('reports the first answer that differs: a receiver that takes what it refused, a sandbox whose answer changed', async ({ folder }) => {
    const sandbox = await sandboxOf();
    const receiver = await receiverOf();
    const file = join(folder, 'ci.har');
    const har = await recordSession(sandbox, receiver, file);

    const lenient = await receiverOf(200);
    const receiverDiff = await sessionReplayCommand(file, { toReceiver: lenient.url }, () => undefined);
    expect(receiverDiff.difference).toMatch(/^entry \d+, event cb_.*_1, attempt 1 \(delivery\): the receiver answered 200 where the recording has 503 \(a 2xx where the recording had a failure\)$/);

    // The read of the trade, changed in the file: that entry is the first difference.
    const read = har.log.entries.findIndex((entry) => entry.request.method === 'GET' && entry.request.url.includes('/api/v1/trades/'));
    const changed = structuredClone(har);
    const entry = changed.log.entries[read];
    if (!entry) throw new Error('no read');
    entry.response.content.text = entry.response.content.text.replace('"state":"confirmed"', '"state":"canceled"');
    const changedFile = join(folder, 'changed.har');
    writeFileSync(changedFile, JSON.stringify(changed));
    let printed = '';
    const sandboxDiff = await sessionReplayCommand(changedFile, { toSandbox: sandbox.url }, (text) => {
      printed += text;
    });
    expect(sandboxDiff.difference).toBe(`entry ${read + 1}, GET ${new URL(entry.request.url).pathname}: state: recorded "canceled", now "confirmed"`);
    expect(printed).toContain('the first answer that differs from the recording is');
  });

  it('stops with what is wrong: not JSON, not a recorded session, a newer version, no target, an unknown secret, a receiver not there', async ({ folder }) => {
    const sandbox = await sandboxOf();
    const receiver = await receiverOf();
    const file = join(folder, 'ci.har');
    const har = await recordSession(sandbox, receiver, file);
    const write = (name: string, text: string) => {
      const path = join(folder, name);
      writeFileSync(path, text);
      return path;
    };
    const stops = async (path: string, options: Parameters<typeof sessionReplayCommand>[1], message: RegExp) => {
      const error = await sessionReplayCommand(path, options, () => undefined).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ReplayStopped);
      expect((error as Error).message).toMatch(message);
    };
    const to = { toReceiver: receiver.url };
    await stops(write('broken.har', '{"log":'), to, /is not JSON/);
    await stops(write('browser.har', JSON.stringify({ log: { version: '1.2', creator: { name: 'Chrome', version: '1' }, entries: [] } })), to, /not a recorded session of deposit-sandbox/);
    await stops(write('newer.har', JSON.stringify({ ...har, log: { ...har.log, _sandbox: { ...har.log._sandbox, version: 9 } } })), to, /newer deposit-sandbox \(session version 9\)/);
    await stops(file, {}, /--to-receiver <url>.*--to-sandbox <url>/);
    await stops(file, { toReceiver: receiver.url, secret: [`${DEMO.id}=not-the-secret`] }, new RegExp(`does not give the signature recorded .*--secret ${DEMO.id}=<secret>`));
    await stops(file, { toReceiver: `http://127.0.0.1:${CLOSED_PORT}` }, /The receiver at http:\/\/127\.0\.0\.1:4\/deposit-callback is unreachable \(ECONNREFUSED\); the replay stopped/);
    await stops(file, { toSandbox: sandbox.url, workspace: 'ci' }, /The workspace ci exists already/);
  });
});
