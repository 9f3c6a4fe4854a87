// Callback fan-out: trades whose callback receiver (a process of its own) holds every
// request for 100 ms are moved to confirmed through the admin API; we time until the
// receiver has answered a callback for each of them, and probe the provider API's latency
// meanwhile.
import { fork } from 'node:child_process';
import { Agent, request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { MERCHANT, TOKEN } from './load.js';

const agent = new Agent({ keepAlive: true, maxSockets: 64 });
const RECEIVER = fileURLToPath(new URL('../receiver.js', import.meta.url));
const PROBE = fileURLToPath(new URL('../probe.js', import.meta.url));

/** One HTTP request with a keep-alive agent; resolves { status, body }. */
export function call(url, { method = 'GET', headers = {}, body } = {}) {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, agent, headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode, body: text }));
    });
    req.setTimeout(30_000, () => req.destroy(new Error(`${method} ${url} timed out`)));
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

/** Runs `task(i)` for i in [0, count) with at most `concurrency` at a time. */
export async function pool(count, concurrency, task) {
  let next = 0;
  const worker = async () => {
    while (next < count) await task(next++);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
}

/** Creates `count` trades over HTTP; returns their ids. */
export async function createTrades(url, count, extra = {}) {
  const ids = [];
  const prefix = `setup-${process.pid}-${Date.now()}-`;
  await pool(count, 20, async (i) => {
    const res = await call(`${url}/api/v1/trades/deposit/create`, {
      method: 'POST',
      headers: { 'x-auth': TOKEN },
      body: { merchant: MERCHANT, order: `${prefix}${i}`, amount_cents: 31250, amount_currency: 'RUB', type: 'any_bank', ...extra },
    });
    if (res.status !== 201) throw new Error(`create answered ${res.status}: ${res.body.slice(0, 300)}`);
    ids.push(JSON.parse(res.body).id);
  });
  return ids;
}

/**
 * A callback receiver on 127.0.0.1 that answers 200 after holding each request `holdMs`,
 * run as its own process (bench/receiver.js). Answer times are epoch ms (see `now()`).
 */
export function startReceiver(holdMs) {
  const answered = new Map(); // trade id + state -> time answered
  const waiters = [];
  const child = fork(RECEIVER, [String(holdMs)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the callback receiver exited with ${code} before it was ready`)));
    child.on('message', (message) => {
      if (message.key !== undefined) {
        if (!answered.has(message.key)) answered.set(message.key, message.at);
        for (const waiter of waiters.splice(0)) waiter();
        return;
      }
      child.removeAllListeners('exit');
      resolve({
        url: message.url,
        /** How many of `ids` have had a callback with `state` answered. */
        count: (ids, state) => ids.filter((id) => answered.has(`${id}:${state}`)).length,
        lastAnswer: (ids, state) => Math.max(...ids.map((id) => answered.get(`${id}:${state}`) ?? Number.NaN)),
        /** Resolves once `done()` holds, checked after each answer, or after `timeoutMs`. */
        until: (done, timeoutMs) =>
          new Promise((ok) => {
            const deadline = setTimeout(ok, timeoutMs);
            const check = () => {
              if (done()) {
                clearTimeout(deadline);
                ok();
              } else waiters.push(check);
            };
            check();
          }),
        close: () =>
          new Promise((ok) => {
            if (child.exitCode !== null || child.signalCode !== null) return ok();
            child.once('exit', () => ok());
            child.disconnect();
            setTimeout(() => child.kill('SIGKILL'), 5_000).unref();
          }),
      });
    });
  });
}

/** Epoch ms with sub-ms precision, comparable across processes (the receiver's answer times). */
export const now = () => performance.timeOrigin + performance.now();

/**
 * Latency probe, run as its own process (bench/probe.js): one GET trade request every
 * `everyMs` (open loop, 500 a second by default). Resolves once it is measuring, with
 * stop(), which resolves { p50, p99, count } in ms (microsecond precision).
 */
export function probe(url, ids, everyMs = 2) {
  const child = fork(PROBE, [url, String(everyMs), ids.join(',')], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the latency probe exited with ${code} before it reported`)));
    child.once('message', () =>
      resolve({
        stop: () =>
          new Promise((ok, fail) => {
            child.once('message', ok);
            child.removeAllListeners('exit');
            child.once('exit', (code) => fail(new Error(`the latency probe exited with ${code} before it reported`)));
            child.send('stop');
          }),
      }),
    );
  });
}

export function closeAgent() {
  agent.destroy();
}
