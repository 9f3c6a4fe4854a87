// The callback fuzzer's speed and the integration report's cost to the create path.
//
//   node bench/fuzzer.js [rounds, default 5]      (needs the build in dist/: npm run build)
//
// 1. Starts examples/receivers/correct.mjs as a process (127.0.0.1, a free port) and times
//    `deposit-sandbox check-callback <url> --probe <probe> --seed 1 --runs 1000` as a process,
//    start-up included: schedules with overlap (at_once groups, timeouts whose retry overlaps
//    the first attempt). Goal: under 30 s, exit 0.
//    Then the same against examples/receivers/check-then-insert.mjs with --runs 100: it must be
//    flagged with the race cause (exit 1) in under 10 s.
// 2. Creates trades in-process through the app (app.request(), no sockets) with the mistake
//    counting on and off (two apps over one in-memory sandbox), in alternating slices, and prints the
//    ratio of the CPU time per create (on / off), medians over the slices. Goal: at most 1.03.
// Bounded (a watchdog ends it after 180 s) and self-stopping.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createApp } from '../dist/app.js';
import { createServer } from '../dist/server/server.js';
import { alternate } from './lib/alternate.js';

const ROUNDS = Number(process.argv[2] ?? 5);
const CREATES_PER_SLICE = 300;
const BIN = fileURLToPath(new URL('../bin/deposit-sandbox.js', import.meta.url));
const RECEIVER = fileURLToPath(new URL('../examples/receivers/correct.mjs', import.meta.url));
const MERCHANT = '6f1c2a9e-3b7d-4c52-9a1e-2d4b8f0c7e51';
const TOKEN = 'sandbox-token-demo';

const children = [];
const watchdog = setTimeout(() => {
  console.error('fuzzer bench: still running after 180 s, stopping');
  for (const child of children) child.kill('SIGKILL');
  process.exit(1);
}, 180_000);

function startReceiver(file = RECEIVER) {
  const child = spawn(process.execPath, [file], { env: { ...process.env, PORT: '0' }, stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const match = /receiver on (\S+), probe on (\S+)\n/.exec(out);
      if (match) resolve({ url: match[1], probe: match[2], child });
    });
    child.once('exit', (code) => reject(new Error(`the receiver exited with ${code}`)));
  });
}

async function fuzzerSeconds(file = RECEIVER, runs = '1000') {
  const receiver = await startReceiver(file);
  const started = performance.now();
  let out = '';
  const code = await new Promise((resolve) => {
    const cli = spawn(process.execPath, [BIN, 'check-callback', receiver.url, '--probe', receiver.probe, '--seed', '1', '--runs', runs], { stdio: ['ignore', 'pipe', 'inherit'] });
    children.push(cli);
    cli.stdout.on('data', (chunk) => {
      out += chunk;
    });
    cli.once('exit', resolve);
  });
  const seconds = (performance.now() - started) / 1000;
  receiver.child.kill();
  return { seconds, code, race: out.includes('deliveries of one event overlapped') };
}

let order = 0;
/** CPU time (user + system, µs) per create over one slice: less disturbed by other processes than wall time. */

/** One create through `app.request()`, timed (µs of wall time; in process, so this is CPU work). */
async function createOnce(app) {
  const started = process.hrtime.bigint();
  const res = await app.request('/api/v1/trades/deposit/create', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Auth': TOKEN },
    body: JSON.stringify({ merchant: MERCHANT, order: `bench-${++order}`, amount_cents: 31250, amount_currency: 'RUB', type: 'any_bank' }),
  });
  const us = Number(process.hrtime.bigint() - started) / 1000;
  if (res.status !== 201) throw new Error(`create answered ${res.status}`);
  return us;
}

async function countingRatio() {
  // Apps over one sandbox: the same store, the same data, only the counting differs. Two
  // counting apps against each other (A/A) show what the method cannot tell apart.
  const sandbox = await createServer({ inMemory: true, auth: 'token' });
  const pairs = ROUNDS * CREATES_PER_SLICE * 4;
  const onOff = await alternate(createOnce, createApp(sandbox), createApp(sandbox, { countMistakes: false }), pairs);
  const same = await alternate(createOnce, createApp(sandbox), createApp(sandbox), pairs);
  return { on: onOff.a, off: onOff.b, noise: same.a / same.b, pairs };
}

const fuzz = await fuzzerSeconds();
const race = await fuzzerSeconds(fileURLToPath(new URL('../examples/receivers/check-then-insert.mjs', import.meta.url)), '100');
const cost = await countingRatio();
const ratio = cost.on / cost.off;
clearTimeout(watchdog);
process.stdout.write(
  [
    `  fuzzer, 1,000 schedules with overlap against examples/receivers/correct.mjs (CLI process, start-up included): ${fuzz.seconds.toFixed(1)} s, exit ${fuzz.code}   goal < 30 s, exit 0   ${fuzz.seconds < 30 && fuzz.code === 0 ? 'PASS' : 'FAIL'}`,
    `  fuzzer, --runs 100 against examples/receivers/check-then-insert.mjs (CLI process, start-up included): ${race.seconds.toFixed(1)} s, exit ${race.code}, ${race.race ? 'race cause printed' : 'NO race cause'}   goal < 10 s, exit 1, race cause   ${race.seconds < 10 && race.code === 1 && race.race ? 'PASS' : 'FAIL'}`,
    `  create path, mistake counting on / off (in-process app.request(), median time of ${cost.pairs.toLocaleString('en-US')} creates each, alternating request by request): ${cost.on.toFixed(1)} / ${cost.off.toFixed(1)} us per create = ${ratio.toFixed(3)} (two identical apps: ${cost.noise.toFixed(3)})   goal <= 1.03   ${ratio <= 1.03 ? 'PASS' : 'FAIL'}`,
    '',
  ].join('\n'),
);
process.exit(0);
