// Scheduler cost, memory per trade, and the pipelining bound.
//
//   node bench/server-limits.js [--quick | --full]
//
// 1. advance over 20,000 distinct due times (with 20,000 more jobs not yet due), on the
//    scheduler alone, in this process;
// 2. advance over distinct due times that each send a callback (a local receiver answers
//    200), through a whole in-memory sandbox with a manual clock, in this process;
// 3. memory per trade: resident memory of a sandbox process (--in-memory) before and after
//    10,000 creates over HTTP, without callback_url, and with one delivered callback each;
// 4. pipelining clients that never read: resident memory per 1,000 requests queued on
//    connections that stay under the per-connection bound.
// Prints a Markdown table. Bounded (a watchdog ends it) and self-stopping.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../dist/app.js';
import { Clock } from '../dist/clock/clock.js';
import { Scheduler } from '../dist/clock/scheduler.js';
import { DEFAULT_PIPELINING_LIMITS } from '../dist/connections/limit-pipelining.js';
import { createServer as createSandboxServer } from '../dist/server/server.js';
import { MemoryAdapter } from '../dist/store/adapter.js';
import { Store } from '../dist/store/store.js';
import { call, closeAgent, createTrades, pool, startReceiver } from './lib/callbacks.js';
import { MERCHANT, TOKEN } from './lib/load.js';
import { killAll, SANDBOX_BIN, start } from './lib/processes.js';
import { fixed, formatTable, int } from './lib/table.js';

const mode = process.argv.includes('--quick') ? 'quick' : 'full';
const config = {
  quick: { dueTimes: 20_000, callbackDueTimes: 2_000, trades: 10_000, sockets: 40 },
  full: { dueTimes: 20_000, callbackDueTimes: 5_000, trades: 10_000, sockets: 80 },
}[mode];

const temp = mkdtempSync(join(tmpdir(), 'deposit-sandbox-limits-'));
const finish = (code) => {
  killAll();
  closeAgent();
  rmSync(temp, { recursive: true, force: true });
  process.exit(code);
};
setTimeout(() => {
  process.stderr.write('server-limits: still running after 5 minutes; stopped\n');
  finish(1);
}, 300_000).unref();

const seconds = (since) => (performance.now() - since) / 1000;

/** 1: the scheduler alone. */
async function advanceJobs(count) {
  const T0 = Date.UTC(2026, 0, 1);
  const store = await Store.open(new MemoryAdapter());
  const clock = new Clock('manual', store, () => T0);
  const scheduler = new Scheduler(store, clock);
  scheduler.handle('bench', () => undefined);
  await scheduler.start();
  for (let i = 1; i <= count; i++) scheduler.schedule('bench', T0 + i * 1_000);
  for (let i = 0; i < count; i++) scheduler.schedule('bench', T0 + 10 * 365 * 86_400_000 + i);
  const started = performance.now();
  const { ran } = await scheduler.advance(count * 1_000);
  return { ran, seconds: seconds(started) };
}

/** 2: every due time is a timeline step whose state change sends a callback. */
async function advanceWithCallbacks(count) {
  let delivered = 0;
  const receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      delivered++;
      res.end('ok');
    });
  });
  await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const scenarios = join(temp, 'scenarios');
  mkdirSync(scenarios, { recursive: true });
  writeFileSync(
    join(scenarios, 'bench.yaml'),
    'scenarios:\n  - name: bench-later\n    description: Confirmed 5 s after creation.\n    match:\n      order: "^bench-later-"\n    timeline:\n      - after: 5s\n        state: confirmed\n',
  );
  const server = await createSandboxServer({ inMemory: true, clock: 'manual', scenarios, auth: 'token' });
  const sandbox = server.root;
  const app = createApp(server);
  const callbackUrl = `http://127.0.0.1:${receiver.address().port}/cb`;
  for (let i = 0; i < count; i++) {
    const res = await app.request('/api/v1/trades/deposit/create', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-auth': TOKEN },
      body: JSON.stringify({ merchant: MERCHANT, order: `bench-later-${i}`, amount_cents: 31250, amount_currency: 'RUB', type: 'any_bank', callback_url: callbackUrl }),
    });
    if (res.status !== 201) throw new Error(`create answered ${res.status}: ${await res.text()}`);
    sandbox.clock.advance(1); // the next trade's step falls due 1 ms later: distinct due times
  }
  const started = performance.now();
  const { ran } = await sandbox.scheduler.advance(10_000);
  const taken = seconds(started);
  await server.close();
  receiver.closeAllConnections();
  receiver.close();
  return { ran, delivered, seconds: taken };
}

/** Resident memory of a process now, in MB (Linux /proc; NaN elsewhere). */
function rssNow(pid) {
  try {
    const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return Number(kb) / 1024;
  } catch {
    return Number.NaN;
  }
}

/** 3: KB per trade, without and with a delivered callback. */
async function memoryPerTrade(count) {
  const plain = await start(SANDBOX_BIN, ['--port', '0', '--in-memory', '--auth', 'token']);
  await createTrades(plain.url, 200); // warm the code paths first
  const before = rssNow(plain.child.pid);
  await createTrades(plain.url, count);
  const without = ((rssNow(plain.child.pid) - before) * 1024) / count;
  await plain.stop();

  const sandbox = await start(SANDBOX_BIN, ['--port', '0', '--in-memory', '--auth', 'token']);
  const receiver = await startReceiver(0);
  try {
    await createTrades(sandbox.url, 200, { callback_url: receiver.url });
    const base = rssNow(sandbox.child.pid);
    const ids = await createTrades(sandbox.url, count, { callback_url: receiver.url });
    await pool(ids.length, 20, async (i) => {
      const res = await call(`${sandbox.url}/_sandbox/trades/${ids[i]}/transition`, { method: 'POST', body: { state: 'confirmed' } });
      if (res.status !== 200) throw new Error(`transition answered ${res.status}`);
    });
    await receiver.until(() => receiver.count(ids, 'confirmed') === ids.length, 60_000);
    const withCallbacks = ((rssNow(sandbox.child.pid) - base) * 1024) / count;
    return { without, withCallbacks, delivered: receiver.count(ids, 'confirmed') };
  } finally {
    await receiver.close();
    await sandbox.stop();
  }
}

/** 4: MB of resident memory per 1,000 requests queued by clients that never read. */
async function pipelining(sockets) {
  const sandbox = await start(SANDBOX_BIN, ['--port', '0', '--in-memory', '--auth', 'token']);
  const port = Number(new URL(sandbox.url).port);
  // Stay just under the bound, so every request is queued and the connections stay open.
  const perSocket = DEFAULT_PIPELINING_LIMITS.active + DEFAULT_PIPELINING_LIMITS.queued - 1;
  const request = 'GET /openapi.json HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n';
  const before = rssNow(sandbox.child.pid);
  const open = [];
  for (let i = 0; i < sockets; i++) {
    const socket = connect(port, '127.0.0.1');
    socket.pause();
    socket.on('error', () => undefined);
    socket.write(request.repeat(perSocket));
    open.push(socket);
  }
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  const grown = rssNow(sandbox.child.pid) - before;
  const alive = open.filter((socket) => !socket.destroyed).length;
  for (const socket of open) socket.destroy();
  await sandbox.stop();
  const queued = sockets * perSocket;
  return { queued, perThousand: (grown * 1000) / queued, alive };
}

const rows = [];
const jobs = await advanceJobs(config.dueTimes);
rows.push([
  `advance over ${int(config.dueTimes)} distinct due times (${int(config.dueTimes)} more stored, not due)`,
  `${fixed(jobs.seconds)} s`,
  `${fixed((jobs.seconds * 1e6) / jobs.ran, 1)} us per job; ${int(jobs.ran)} ran`,
]);
const withCallbacks = await advanceWithCallbacks(config.callbackDueTimes);
rows.push([
  `advance over ${int(config.callbackDueTimes)} distinct due times, each a state change with a callback`,
  `${fixed(withCallbacks.seconds)} s`,
  `${fixed((withCallbacks.seconds * 1e6) / config.callbackDueTimes, 0)} us per due time; ${int(withCallbacks.delivered)} callbacks answered`,
]);
const memory = await memoryPerTrade(config.trades);
rows.push([`memory per trade, ${int(config.trades)} creates, no callback_url`, `${fixed(memory.without, 2)} KB`, 'resident memory of the --in-memory process, after minus before']);
rows.push([`memory per trade, ${int(config.trades)} creates + confirmed + 1 callback delivered each`, `${fixed(memory.withCallbacks, 2)} KB`, `${int(memory.delivered)} callbacks delivered`]);
const piped = await pipelining(config.sockets);
rows.push([
  `pipelined requests queued, never read (${config.sockets} connections, GET /openapi.json)`,
  `${fixed(piped.perThousand, 2)} MB per 1,000`,
  `${int(piped.queued)} queued; ${piped.alive} connections still open`,
]);

process.stdout.write(`${formatTable(['measure', 'figure', 'detail'], rows)}\n`);
finish(0);
