/**
 * kill -9 in the middle of a create load loses no acknowledged trade. Real processes and
 * real HTTP on 127.0.0.1, bounded in count and time. Runs the build in dist/ (`npm test`
 * builds first; run `npm run build` before running this file alone).
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect } from 'vitest';
import { it, test } from './temp-folder.js';
import { DEMO } from './support.js';

const BIN = fileURLToPath(new URL('../bin/deposit-sandbox.js', import.meta.url));
const CLIENTS = 20;
/** Acknowledged creates after which the sandbox is killed, per round. */
const KILL_AFTER = 150;
/** Creates each client may send per round, at most. */
const MAX_PER_CLIENT = 400;

const children: ChildProcessWithoutNullStreams[] = [];
/** The file's temporary folder (the fixture removes it after the file's tests). */
let data: string;
test.beforeAll(({ fileFolder }) => {
  data = fileFolder;
});
afterAll(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

interface Running {
  child: ChildProcessWithoutNullStreams;
  url: string;
  exited: Promise<number | null>;
}

/** Starts the sandbox on the shared data folder; the same --public-url each time so payment urls match. */
async function start(): Promise<Running> {
  const child = spawn(process.execPath, [BIN, '--port', '0', '--data', data, '--auth', 'token', '--clock', 'manual', '--public-url', 'http://sandbox.test'], {
    stdio: 'pipe',
  });
  children.push(child);
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  let out = '';
  let err = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const match = /^deposit-sandbox listening on (\S+)\n/.exec(out);
      if (match?.[1]) resolve(match[1]);
    });
    void exited.then((code) => reject(new Error(`deposit-sandbox exited (${code}) before its ready line:\n${out}\n${err}`)));
  });
  return { child, url, exited };
}

interface Reply {
  status: number;
  body: string;
}

function send(agent: Agent, url: string, method: string, headers: Record<string, string>, body?: string): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, agent, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      res.on('error', reject);
    });
    req.setTimeout(10_000, () => req.destroy(new Error('timed out')));
    req.on('error', reject);
    req.end(body);
  });
}

let orders = 0;

/**
 * 20 clients create trades one after another until the sandbox dies under them; the
 * sandbox is killed with SIGKILL once KILL_AFTER creates were acknowledged. Returns the
 * acknowledged trades (the 201 bodies) and how many requests got no answer.
 */
async function createUntilKilled(running: Running): Promise<{ acknowledged: Array<Record<string, unknown>>; unanswered: number }> {
  const agent = new Agent({ keepAlive: true, maxSockets: CLIENTS });
  const acknowledged: Array<Record<string, unknown>> = [];
  let unanswered = 0;
  let killed = false;
  const client = async (n: number) => {
    for (let i = 0; i < MAX_PER_CLIENT; i++) {
      const body = JSON.stringify({ merchant: DEMO.id, order: `crash-${process.pid}-${n}-${++orders}`, amount_cents: 31250 + i, amount_currency: 'RUB', type: i % 2 ? 'nspk' : 'any_bank' });
      let reply: Reply;
      try {
        reply = await send(agent, `${running.url}/api/v1/trades/deposit/create`, 'POST', { 'Content-Type': 'application/json', 'X-Auth': DEMO.token }, body);
      } catch {
        unanswered++;
        return; // the sandbox is gone
      }
      expect(reply.status, reply.body).toBe(201);
      acknowledged.push(JSON.parse(reply.body) as Record<string, unknown>);
      if (!killed && acknowledged.length >= KILL_AFTER) {
        killed = true;
        running.child.kill('SIGKILL');
      }
    }
  };
  await Promise.all(Array.from({ length: CLIENTS }, (_, n) => client(n)));
  agent.destroy();
  if (!killed) running.child.kill('SIGKILL');
  await running.exited;
  return { acknowledged, unanswered };
}

/** GETs every trade and expects exactly the body the create answered. */
async function expectAll(running: Running, trades: Array<Record<string, unknown>>): Promise<void> {
  const agent = new Agent({ keepAlive: true, maxSockets: 10 });
  const missing: string[] = [];
  for (let i = 0; i < trades.length; i += 10) {
    await Promise.all(
      trades.slice(i, i + 10).map(async (trade) => {
        const reply = await send(agent, `${running.url}/api/v1/trades/${DEMO.id}/${String(trade['id'])}`, 'GET', { 'X-Token': DEMO.token });
        if (reply.status !== 200) missing.push(`${String(trade['id'])}: ${reply.status}`);
        else expect(JSON.parse(reply.body)).toEqual(trade);
      }),
    );
  }
  agent.destroy();
  expect(missing).toEqual([]);
}

describe('kill -9 under load', () => {
  it('every acknowledged trade is there, identical, after each of two crashes and a clean stop', async () => {
    const first = await createUntilKilled(await start());
    expect(first.acknowledged.length).toBeGreaterThanOrEqual(KILL_AFTER);

    const second = await start();
    await expectAll(second, first.acknowledged);
    const more = await createUntilKilled(second);
    expect(more.acknowledged.length).toBeGreaterThanOrEqual(KILL_AFTER);

    const third = await start();
    const all = [...first.acknowledged, ...more.acknowledged];
    await expectAll(third, all);

    // A clean stop compacts the journal into db.json; everything is still there after it.
    third.child.kill('SIGTERM');
    expect(await third.exited).toBe(0);
    expect(readdirSync(data).filter((name) => name.startsWith('journal.'))).toHaveLength(1);
    const fourth = await start();
    await expectAll(fourth, all);
    fourth.child.kill('SIGTERM');
    expect(await fourth.exited).toBe(0);
  }, 180_000);
});
