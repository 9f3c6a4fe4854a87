// API latency while callback receivers misbehave.
//
//   node bench/faulty-receivers.js [seconds per phase, default 5]
//
// Spawns `node bin/deposit-sandbox.js --port 0 --in-memory --auth token`, measures GET
// /api/v1/trades/:merchant/:uuid at 127.0.0.1 with autocannon while nothing else happens
// (idle), then again while hundreds of callbacks go to receivers that hang, never read,
// reset mid-answer, drip a never-ending answer, answer with a huge body, or refuse the
// connection, and prints requests/s, p50 and p99 for both. Bounded (a watchdog ends it
// after 120 s) and self-stopping (the sandbox and the receivers are closed at the end).
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { createServer as createTcpServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const SECONDS = Number(process.argv[2] ?? 5);
const CONNECTIONS = 10;
const TRADES_PER_FAULT = 60;
const MERCHANT = '6f1c2a9e-3b7d-4c52-9a1e-2d4b8f0c7e51';
const TOKEN = 'sandbox-token-demo';
const BIN = fileURLToPath(new URL('../bin/deposit-sandbox.js', import.meta.url));

const closers = [];
let child;

const watchdog = setTimeout(() => {
  console.error('faulty-receivers: still running after 120 s, stopping');
  child?.kill('SIGKILL');
  process.exit(1);
}, 120_000);
watchdog.unref();

/** Starts the sandbox and resolves with its URL from the ready line. */
function startSandbox() {
  child = spawn(process.execPath, [BIN, '--port', '0', '--in-memory', '--auth', 'token'], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match) resolve(match[1].replace('0.0.0.0', '127.0.0.1'));
    });
    child.once('exit', (code) => reject(new Error(`the sandbox exited (${code}) before it was ready`)));
  });
}

/** An HTTP receiver on 127.0.0.1; `respond(req, res)` misbehaves. */
async function httpReceiver(respond) {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => respond(req, res));
  });
  server.on('clientError', (_error, socket) => socket.destroy());
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => {
    server.closeAllConnections();
    server.close();
  });
  return `http://127.0.0.1:${server.address().port}/cb`;
}

/** A TCP server that accepts and never reads or answers. */
async function silentReceiver() {
  const sockets = new Set();
  const server = createTcpServer((socket) => {
    sockets.add(socket);
    socket.pause();
    socket.on('error', () => {});
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => {
    for (const socket of sockets) socket.destroy();
    server.close();
  });
  return `http://127.0.0.1:${server.address().port}/cb`;
}

/** A port on 127.0.0.1 where nothing listens. */
async function refusedPort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}/cb`;
}

const HUGE = Buffer.alloc(8 * 1024 * 1024, 'x');

async function faultyReceivers() {
  return {
    hangs: await httpReceiver(() => {}),
    'never reads': await silentReceiver(),
    'resets mid-answer': await httpReceiver((req, res) => {
      res.writeHead(200, { 'Content-Length': '1000' });
      res.write('half', () => req.socket.destroy());
    }),
    'drips forever': await httpReceiver((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      const timer = setInterval(() => (res.destroyed ? clearInterval(timer) : res.write('.')), 100);
    }),
    'huge 500 body': await httpReceiver((_req, res) => res.writeHead(500).end(HUGE)),
    refuses: await refusedPort(),
  };
}

async function api(url, path, init = {}) {
  const res = await fetch(`${url}${path}`, { ...init, signal: AbortSignal.timeout(10_000) });
  const body = await res.json();
  if (res.status >= 300) throw new Error(`${init.method ?? 'GET'} ${path} answered ${res.status}: ${JSON.stringify(body)}`);
  return body;
}

let orders = 0;
async function createTrade(url, callbackUrl) {
  const body = { merchant: MERCHANT, order: `faulty-${process.pid}-${++orders}`, amount_cents: 31250, amount_currency: 'RUB', type: 'any_bank', ...(callbackUrl ? { callback_url: callbackUrl } : {}) };
  return api(url, '/api/v1/trades/deposit/create', { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Auth': TOKEN }, body: JSON.stringify(body) });
}

async function measure(url, id) {
  const result = await autocannon({
    url: `${url}/api/v1/trades/${MERCHANT}/${id}`,
    connections: CONNECTIONS,
    duration: SECONDS,
    headers: { 'x-token': TOKEN },
  });
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, failures: result.non2xx + result.errors + result.timeouts };
}

async function main() {
  const url = await startSandbox();
  const target = await createTrade(url);
  await measure(url, target.id).then(
    () => undefined,
    () => undefined,
  ); // warm-up, discarded
  const idle = await measure(url, target.id);

  const receivers = await faultyReceivers();
  // Every trade's state change becomes a callback to one of the faulty receivers.
  const trades = [];
  for (const callbackUrl of Object.values(receivers)) {
    for (let i = 0; i < TRADES_PER_FAULT; i++) trades.push(await createTrade(url, callbackUrl));
  }
  await Promise.all(trades.map((trade) => api(url, `/_sandbox/trades/${trade.id}/transition`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"state":"confirmed"}' })));
  const busy = await measure(url, target.id);
  const pending = (await api(url, '/_sandbox/callbacks?status=pending&limit=1000')).callbacks;
  const attempts = pending.reduce((sum, event) => sum + event.attempts.length, 0);

  const row = (name, r) => `${name.padEnd(26)}${String(Math.round(r.rps)).padStart(8)}${String(r.p50).padStart(9)}${String(r.p99).padStart(9)}${String(r.failures).padStart(10)}`;
  console.log(`GET /api/v1/trades/:merchant/:uuid at 127.0.0.1, autocannon ${CONNECTIONS} connections, ${SECONDS} s per phase`);
  console.log(`${''.padEnd(26)}${'req/s'.padStart(8)}${'p50 ms'.padStart(9)}${'p99 ms'.padStart(9)}${'failures'.padStart(10)}`);
  console.log(row('idle', idle));
  console.log(row('during faulty receivers', busy));
  console.log(
    `faulty receivers: ${Object.keys(receivers).join(', ')} (${TRADES_PER_FAULT} callbacks each, ${trades.length} in all); after the run ${pending.length} still pending, ${attempts} failed attempts logged so far`,
  );
  if (idle.failures + busy.failures > 0) process.exitCode = 1;
}

try {
  await main();
} catch (error) {
  console.error(`faulty-receivers: ${error.message}`);
  process.exitCode = 1;
} finally {
  for (const close of closers) close();
  if (child && child.exitCode === null) {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  }
  clearTimeout(watchdog);
}
