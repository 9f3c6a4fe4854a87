// Sessions: what recording costs a create, and what a fork of a prepared workspace costs,
// against a create in the same run.
//
//   node bench/sessions.js [rounds, default 5]      (needs the build in dist/: npm run build)
//
// Recording, over HTTP: sandbox processes (--in-memory), one recording (the default), one with
// --no-record and a second recording one (A/A), loaded with creates by autocannon (50
// connections, 127.0.0.1) in turn, in 2 s slices, the order rotating each round, `rounds` rounds
// after a warm-up; throughput over all slices and the server's CPU time per create are compared. Goal: recording at least 0.95 x the
// throughput of --no-record. In process: the same two apps through app.request() (no sockets),
// alternating request by request, 1,200 x rounds creates each, with two recording sandboxes
// against each other (A/A) to show what the method cannot tell apart (for the record: it leaves
// out what the recording costs the HTTP layer and the garbage collector under load).
//
// Forks: an in-memory sandbox (manual clock) is prepared through its app with 1,000 trades, each
// moved to confirmed with a callback_url where nothing listens, and --callback-retries of four
// waits, so the clock's advance makes 5 attempts of each callback (5,000 in all). Then
// POST /_sandbox/fork (app.request(), no sockets) copies it, one fork after another (each removed
// after it is timed, so every fork copies the same workspace), 20 x rounds times after a warm-up;
// p50, p95 and p99 of the time per fork are shown with the median time of a create measured
// between them, and the same on a data folder (the fork's rows written to the workspaces'
// journal). Goal: p95 under 20 ms in memory. Then 100 forks at once: all must be 201.
// Replay: a recorded session of one hour (3,600 callbacks, one a second) replayed to a receiver
// on loopback as fast as it answers; goal under 60 s.
// Per test: what a merchant's test pays for a clean start by reset, by a new workspace and by a
// fork of a prepared one, with one create, one payment, one callback delivered and one read;
// p50 and p99 (measurePerTest()).
// Bounded (a watchdog ends it after 300 s) and self-stopping.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createApp } from '../dist/app.js';
import { sessionReplayCommand } from '../dist/cli/session-replay-command.js';
import { startSandbox } from '../dist/index.js';
import { createServer } from '../dist/server/server.js';
import { alternate } from './lib/alternate.js';
import { createRequests, load, warm } from './lib/load.js';
import { killAll, SANDBOX_BIN, settle, start } from './lib/processes.js';

const ROUNDS = Number(process.argv[2] ?? 5);
const TRADES = 1_000;
const MERCHANT = '6f1c2a9e-3b7d-4c52-9a1e-2d4b8f0c7e51';
const TOKEN = 'sandbox-token-demo';
/** Port 4 on loopback: nothing listens there, so each attempt fails at once (test/callbacks-receiver.ts CLOSED_PORT). */
const NOWHERE = 'http://127.0.0.1:4/callback';

const watchdog = setTimeout(() => {
  console.error('sessions bench: still running after 300 s, stopping');
  killAll();
  process.exit(1);
}, 300_000);

const quantile = (values, q) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
};
const ms = (value) => value.toFixed(2);
const json = { 'Content-Type': 'application/json' };

let order = 0;
const createBody = (extra = {}) => JSON.stringify({ merchant: MERCHANT, order: `bench-${++order}`, amount_cents: 31250, amount_currency: 'RUB', type: 'any_bank', ...extra });

async function request(app, method, path, body) {
  const res = await app.request(path, { method, headers: { ...json, 'X-Auth': TOKEN }, ...(body === undefined ? {} : { body }) });
  return res;
}

/** Time of one create in the default workspace of `app` (ms). */
async function createOnce(app) {
  const started = performance.now();
  const res = await request(app, 'POST', '/api/v1/trades/deposit/create', createBody());
  const took = performance.now() - started;
  if (res.status !== 201) throw new Error(`create answered ${res.status}`);
  await res.arrayBuffer();
  return took;
}

/** A sandbox whose workspace `prepared` holds TRADES trades and 5 failed attempts of each one's callback. */
async function prepared(options) {
  const server = await createServer({ clock: 'manual', callbackRetries: '1s,1s,1s,1s', ...options });
  const app = createApp(server);
  for (let i = 0; i < TRADES; i++) {
    const res = await request(app, 'POST', '/w/prepared/api/v1/trades/deposit/create', createBody({ callback_url: NOWHERE }));
    const { id } = await res.json();
    await request(app, 'POST', `/w/prepared/_sandbox/trades/${id}/transition`, JSON.stringify({ state: 'confirmed' }));
  }
  await request(app, 'POST', '/w/prepared/_sandbox/clock/advance', JSON.stringify({ by: '10s' }));
  const state = await (await request(app, 'GET', '/w/prepared/_sandbox/state')).json();
  const attempts = state.callbacks.reduce((sum, event) => sum + event.attempts.length, 0);
  if (state.trades.length !== TRADES || attempts !== 5 * TRADES) throw new Error(`prepared ${state.trades.length} trades and ${attempts} attempts`);
  return { server, app, attempts, bytes: JSON.stringify(state).length };
}

let forks = 0;
/** Times one fork of `prepared` (ms), then removes it. */
async function forkOnce(app) {
  const name = `fork-${++forks}`;
  const started = performance.now();
  const res = await request(app, 'POST', '/w/prepared/_sandbox/fork', JSON.stringify({ to: name }));
  const took = performance.now() - started;
  if (res.status !== 201) throw new Error(`fork answered ${res.status}: ${await res.text()}`);
  await res.arrayBuffer();
  await request(app, 'DELETE', `/w/${name}/_sandbox`);
  return took;
}

async function measureForks(label, options) {
  const { server, app, attempts, bytes } = await prepared(options);
  for (let i = 0; i < 10; i++) {
    await forkOnce(app);
    await createOnce(app);
  }
  const forkTimes = [];
  const createTimes = [];
  for (let i = 0; i < 20 * ROUNDS; i++) {
    forkTimes.push(await forkOnce(app));
    createTimes.push(await createOnce(app));
  }
  const create = quantile(createTimes, 0.5);
  const p95 = quantile(forkTimes, 0.95);
  const line = `  fork of a workspace of ${TRADES.toLocaleString('en-US')} trades and ${attempts.toLocaleString('en-US')} callback attempts (${(bytes / 1e6).toFixed(1)} MB as a state document), ${label}, ${forkTimes.length} forks one after another: p50 ${ms(quantile(forkTimes, 0.5))} ms, p95 ${ms(p95)} ms, p99 ${ms(quantile(forkTimes, 0.99))} ms; a create in between: ${ms(create)} ms (p95 = ${(p95 / create).toFixed(0)} creates)`;
  return { server, app, p95, line };
}

/** One create through `app` (µs of wall time; in process, so this is CPU work). */
async function timedCreate(app) {
  const body = createBody();
  const started = process.hrtime.bigint();
  const res = await app.request('/api/v1/trades/deposit/create', { method: 'POST', headers: { ...json, 'X-Auth': TOKEN }, body });
  const us = Number(process.hrtime.bigint() - started) / 1000;
  if (res.status !== 201) throw new Error(`create answered ${res.status}`);
  await res.arrayBuffer();
  return us;
}

/** What recording costs a create: a recording sandbox against one started with --no-record, and two recording ones against each other (A/A). */
async function measureRecording() {
  const servers = [];
  const app = async (record) => {
    const server = await createServer({ inMemory: true, record });
    servers.push(server);
    return createApp(server);
  };
  const count = ROUNDS * 1200;
  const recording = await app(true);
  const cost = await alternate(timedCreate, recording, await app(false), count);
  const same = await alternate(timedCreate, recording, await app(true), count);
  await Promise.all(servers.map((server) => server.close()));
  // Throughput is the inverse of the time per create: recording's over --no-record's.
  const ratio = cost.b / cost.a;
  return `  creates while recording / with --no-record (in-process app.request(), median time of ${count.toLocaleString('en-US')} creates each, alternating request by request): ${cost.a.toFixed(1)} / ${cost.b.toFixed(1)} us per create = ${ratio.toFixed(3)} x the throughput of --no-record (two recording sandboxes: ${(same.b / same.a).toFixed(3)})   (for the record)\n`;
}

/** What recording costs a create over HTTP: a recording sandbox process against one started with --no-record, loaded in turn. */
async function measureRecordingOverHttp() {
  const SLICE = 2;
  // A recording process, one with --no-record, and a second recording one: the A/A pair shows what the method cannot tell apart.
  const servers = [];
  for (const extra of [[], ['--no-record'], []]) servers.push(await start(SANDBOX_BIN, ['--in-memory', '--port', '0', ...extra]));
  try {
    for (const server of servers) await warm(server, createRequests(), 2);
    const slices = servers.map(() => []);
    for (let round = 0; round < ROUNDS; round++) {
      // The order rotates each round, so whatever else the machine does falls on each alike.
      for (let k = 0; k < servers.length; k++) {
        const i = (k + round) % servers.length;
        const slice = await load(servers[i], createRequests(), SLICE);
        if (slice.failures > 0) throw new Error(`${slice.failures} creates failed: ${JSON.stringify(slice.detail)}`);
        // Work a slice left behind (a GC) is charged to it and never overlaps another server's slice.
        const after = await settle(servers[i].child.pid);
        slices[i].push({ total: slice.total, cpuMs: (slice.cpuUs * slice.total) / 1000 + after });
      }
    }
    const [recording, plain, again] = slices.map((runs) => {
      const total = runs.reduce((sum, run) => sum + run.total, 0);
      return { rps: total / (runs.length * SLICE), cpuUs: (runs.reduce((sum, run) => sum + run.cpuMs, 0) * 1000) / total };
    });
    const ratio = recording.rps / plain.rps;
    return `  creates while recording / with --no-record (HTTP, separate processes, autocannon ${ROUNDS} rounds of ${SLICE} s slices each in turn): ${Math.round(recording.rps).toLocaleString('en-US')} / ${Math.round(plain.rps).toLocaleString('en-US')} creates/s = ${ratio.toFixed(3)} x the throughput of --no-record; server CPU ${recording.cpuUs.toFixed(1)} / ${plain.cpuUs.toFixed(1)} us per create = ${(recording.cpuUs / plain.cpuUs).toFixed(3)} x (two recording processes: ${(again.rps / recording.rps).toFixed(3)} x the throughput, ${(again.cpuUs / recording.cpuUs).toFixed(3)} x the CPU)   goal >= 0.95   ${ratio >= 0.95 ? 'PASS' : 'FAIL'}\n`;
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
  }
}

const CALLBACKS_PER_HOUR = 3_600;

/**
 * A recorded CI session of one hour replayed to a local receiver: an in-memory sandbox (manual
 * clock) sends 3,600 callbacks to a receiver on loopback, its session is exported, each attempt's
 * time spread one second apart (an hour in all), and `session replay --to-receiver` sends them
 * again, as fast as answered (its default). Goal: under 60 s.
 */
async function measureReplay(folder) {
  const receiver = createHttpServer((req, res) => {
    req.resume();
    req.on('end', () => res.end('ok'));
  });
  await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${receiver.address().port}`;
  const server = await createServer({ inMemory: true, clock: 'manual', recordLimit: '256MB' });
  const app = createApp(server);
  for (let i = 0; i < CALLBACKS_PER_HOUR; i++) {
    const res = await request(app, 'POST', '/api/v1/trades/deposit/create', createBody({ callback_url: `${url}/deposit-callback` }));
    const { id } = await res.json();
    await request(app, 'POST', `/_sandbox/trades/${id}/transition`, JSON.stringify({ state: 'confirmed' }));
  }
  await request(app, 'POST', '/_sandbox/clock/advance', JSON.stringify({ by: '0s' }));
  const har = await (await request(app, 'GET', '/_sandbox/session.har')).json();
  await server.close();
  const outbound = har.log.entries.filter((entry) => entry._sandbox.direction === 'outbound');
  if (outbound.length !== CALLBACKS_PER_HOUR) throw new Error(`recorded ${outbound.length} callback attempts`);
  const start = Date.parse(har.log.entries[0].startedDateTime);
  outbound.forEach((entry, i) => {
    entry.startedDateTime = new Date(start + i * 1000).toISOString();
  });
  const file = join(folder, 'hour.har');
  writeFileSync(file, JSON.stringify(har));
  const started = performance.now();
  const result = await sessionReplayCommand(file, { toReceiver: url }, () => undefined);
  const seconds = (performance.now() - started) / 1000;
  await new Promise((resolve) => receiver.close(resolve));
  if (result.difference !== undefined || result.replayed !== CALLBACKS_PER_HOUR) throw new Error(`replay: ${JSON.stringify(result)}`);
  return `  a recorded session of one hour (${CALLBACKS_PER_HOUR.toLocaleString('en-US')} callback attempts, one a second) replayed to a receiver on loopback with session replay --to-receiver, as fast as answered: ${seconds.toFixed(1)} s   goal < 60 s   ${seconds < 60 ? 'PASS' : 'FAIL'}\n`;
}

const TESTS_PER_WAY = 100;
const PREPARED_TRADES = 100;

/**
 * What a merchant's test pays, per test, for a clean start in each way, then its own work: one
 * create (with a callback_url), one payment (the trade confirmed), its callback delivered (awaited
 * at the receiver; its first attempt is due at once, also with a manual clock) and one read. Over real HTTP on loopback
 * (startSandbox(), a receiver in this process), the three ways taking turns test by test:
 * POST .../_sandbox/reset of one workspace; a new workspace (its first request makes it); a fork of
 * a prepared workspace of PREPARED_TRADES trades. Workspaces made are removed after their test,
 * untimed. p50 and p99 of the whole test, in ms.
 */
async function measurePerTest() {
  /** Trade id -> resolves once its callback reached the receiver (answered 200). */
  const arrivals = new Map();
  const arrived = (id) => {
    let entry = arrivals.get(id);
    if (!entry) {
      let resolve;
      entry = { promise: new Promise((r) => (resolve = r)), resolve };
      arrivals.set(id, entry);
    }
    return entry;
  };
  const receiver = createHttpServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      res.end('ok');
      arrived(JSON.parse(Buffer.concat(chunks).toString('utf8')).id).resolve();
    });
  });
  await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const callbackUrl = `http://127.0.0.1:${receiver.address().port}/deposit-callback`;
  const sandbox = await startSandbox({ clock: 'manual' });
  const http = async (method, path, body) => {
    const headers = { ...json, [method === 'GET' ? 'X-Token' : 'X-Auth']: TOKEN };
    const res = await fetch(`${sandbox.url}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${method} ${path} answered ${res.status}: ${text.slice(0, 200)}`);
    return text ? JSON.parse(text) : undefined;
  };
  for (let i = 0; i < PREPARED_TRADES; i++) {
    const trade = await http('POST', '/w/prepared/api/v1/trades/deposit/create', JSON.parse(createBody({ callback_url: callbackUrl })));
    await http('POST', `/w/prepared/_sandbox/trades/${trade.id}/transition`, { state: 'confirmed' });
  }
  /** One test in workspace `base`: create, pay, the callback delivered, read. */
  const work = async (base) => {
    const trade = await http('POST', `${base}/api/v1/trades/deposit/create`, JSON.parse(createBody({ callback_url: callbackUrl })));
    await http('POST', `${base}/_sandbox/trades/${trade.id}/transition`, { state: 'confirmed' });
    // Its first attempt is due at once: the sandbox sends it without an advance.
    await arrived(trade.id).promise;
    arrivals.delete(trade.id);
    await http('GET', `${base}/api/v1/trades/${MERCHANT}/${trade.id}`);
  };
  let n = 0;
  const ways = {
    reset: async () => {
      await http('POST', '/w/reused/_sandbox/reset');
      await work('/w/reused');
    },
    'a new workspace': async () => {
      const name = `new-${++n}`;
      await work(`/w/${name}`);
      return name;
    },
    'a fork of a prepared one': async () => {
      const name = `fork-${++n}`;
      await http('POST', '/w/prepared/_sandbox/fork', { to: name });
      await work(`/w/${name}`);
      return name;
    },
  };
  const times = Object.fromEntries(Object.keys(ways).map((way) => [way, []]));
  for (let i = -5; i < TESTS_PER_WAY; i++) {
    for (const [way, test] of Object.entries(ways)) {
      const started = performance.now();
      const made = await test();
      const took = performance.now() - started;
      if (i >= 0) times[way].push(took);
      if (made !== undefined) await http('DELETE', `/w/${made}/_sandbox`);
    }
  }
  await sandbox.close();
  await new Promise((resolve) => receiver.close(resolve));
  const rows = Object.entries(times).map(([way, list]) => `${way} p50 ${ms(quantile(list, 0.5))} ms, p99 ${ms(quantile(list, 0.99))} ms`);
  return `  per test, a clean start then one create, one payment, one callback delivered and one read (HTTP on loopback, manual clock, the callback awaited at the receiver, ${TESTS_PER_WAY} tests each way, taking turns; the fork's source holds ${PREPARED_TRADES} trades with their callbacks): ${rows.join('; ')}   (for the record)\n`;
}

const folder = mkdtempSync(join(tmpdir(), 'deposit-sandbox-bench-sessions-'));
try {
  process.stdout.write(await measureRecordingOverHttp());
  process.stdout.write(await measureRecording());
  const memory = await measureForks('in memory', { inMemory: true });
  const goal = memory.p95 < 20;
  process.stdout.write(`${memory.line}   goal p95 < 20 ms   ${goal ? 'PASS' : 'FAIL'}\n`);

  const started = performance.now();
  const answers = await Promise.all(Array.from({ length: 100 }, (_, i) => request(memory.app, 'POST', '/w/prepared/_sandbox/fork', JSON.stringify({ to: `at-once-${i}` }))));
  const wall = performance.now() - started;
  const created = answers.filter((res) => res.status === 201).length;
  process.stdout.write(`  100 forks of it at once (in memory): ${created} of 100 answered 201 in ${ms(wall)} ms in all   goal 100 of 100   ${created === 100 ? 'PASS' : 'FAIL'}\n`);
  await memory.server.close();

  process.stdout.write(await measureReplay(folder));
  process.stdout.write(await measurePerTest());

  const disk = await measureForks('data folder', { data: folder });
  process.stdout.write(`${disk.line}   (for the record)\n`);
  await disk.server.close();
} finally {
  rmSync(folder, { recursive: true, force: true });
}
clearTimeout(watchdog);
process.exit(0);
