// node bench/workspaces.js [--quick | --full] [--only create|advance|startup]   (npm run bench runs it too)
//
// --only <phase> runs one phase and prints its rows alone (to measure one change to it); without
// it, every phase runs, as npm run bench does.
//
// Workspaces (/w/<name>) in one sandbox process:
// - create spread over 64 active workspaces against create in one workspace, same process,
//   interleaved slices (guard rail >= 0.85; the figure is all rounds' creates against all rounds' creates,
//   and the range of the rounds' own ratios is printed beside it); and the same pair with one
//   connection, as a control without a goal: each turn of the event loop then serves one create,
//   so the one workspace's creates no longer follow each other many to a turn;
// - POST clock/advance in one workspace while 20,000 steps are pending in others, against the
//   same advance with none pending elsewhere, in two processes timed alternately (goal <= 1.2 x);
// - start-up with 100 workspaces x 1,000 trades: to the ready line, and until every workspace
//   is loaded (GET /_sandbox/workspaces answers once they are), with peak RSS (goal <= 1.5 s).
// Prints one table. Bounded in time; removes its temp folder.
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { call, closeAgent, pool } from './lib/callbacks.js';
import { CONNECTIONS, load, MERCHANT, TOKEN, warm } from './lib/load.js';
import { cpuMs, killAll, rssMb, run, SANDBOX_BIN, settle, start } from './lib/processes.js';
import { fixed, formatTable, int, mb, median, ms } from './lib/table.js';

const PHASES = ['create', 'advance', 'startup'];
const argv = process.argv.slice(2);
const onlyAt = argv.indexOf('--only');
const only = onlyAt === -1 ? undefined : argv[onlyAt + 1];
const flags = onlyAt === -1 ? argv : [...argv.slice(0, onlyAt), ...argv.slice(onlyAt + 2)];
if (flags.some((arg) => !['--quick', '--full'].includes(arg)) || (onlyAt !== -1 && !PHASES.includes(only))) {
  process.stdout.write(`usage: node bench/workspaces.js [--quick | --full] [--only ${PHASES.join('|')}]\n`);
  process.exit(2);
}
const mode = flags.includes('--quick') ? 'quick' : 'full';
const runs = (phase) => only === undefined || only === phase;
const config = {
  quick: { rounds: 3, slice: 1.5, warm: 1, pendingElsewhere: 20_000, advances: 15, startups: 3 },
  full: { rounds: 6, slice: 2, warm: 2, pendingElsewhere: 20_000, advances: 31, startups: 5 },
}[mode];
const SEED_WORKSPACES = fileURLToPath(new URL('./seed-workspaces.js', import.meta.url));

const root = mkdtempSync(join(tmpdir(), 'deposit-sandbox-bench-ws-'));
const cleanup = () => {
  killAll();
  closeAgent();
  rmSync(root, { recursive: true, force: true });
};
const watchdog = setTimeout(() => {
  process.stderr.write('bench/workspaces: still running after 8 minutes; stopped\n');
  cleanup();
  process.exit(1);
}, 8 * 60_000);
watchdog.unref();
const log = (text) => process.stderr.write(`bench/workspaces: ${text}\n`);
let dirs = 0;
const freshDir = () => join(root, `data-${++dirs}`);

/** Create requests spread round-robin over `names` (path prefix /w/<name>; '' is default). */
function createIn(names) {
  const prefix = `bench-${process.pid}-${Math.random().toString(36).slice(2, 8)}-`;
  let n = 0;
  return [
    {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-auth': TOKEN },
      setupRequest: (request) => {
        const i = ++n;
        const name = names[i % names.length];
        return {
          ...request,
          path: `${name === '' ? '' : `/w/${name}`}/api/v1/trades/deposit/create`,
          body: JSON.stringify({ merchant: MERCHANT, order: `${prefix}${i}`, amount_cents: 31250, amount_currency: 'RUB', type: 'any_bank' }),
        };
      },
    },
  ];
}

async function createPhase() {
  const sandbox = await start(SANDBOX_BIN, ['--port', '0', '--data', freshDir(), '--auth', 'token']);
  try {
    const many = Array.from({ length: 64 }, (_, i) => `active-${i}`);
    // Every workspace exists and holds trades before the measure.
    await pool(many.length, 8, async (i) => {
      for (let k = 0; k < 20; k++) {
        await call(`${sandbox.url}/w/${many[i]}/api/v1/trades/deposit/create`, {
          method: 'POST',
          headers: { 'x-auth': TOKEN },
          body: { merchant: MERCHANT, order: `pre-${k}`, amount_cents: 100, amount_currency: 'RUB', type: 'nspk' },
        });
      }
    });
    // The last two are the control: the same pair with one connection, so each turn of the event
    // loop serves one create (see docs/benchmarks.md). `baseline`: the row each round is compared with.
    const targets = [
      { name: 'create, one workspace (/w/solo)', requests: () => createIn(['solo']), connections: CONNECTIONS, baseline: 0 },
      { name: 'create, 64 active workspaces', requests: () => createIn(many), connections: CONNECTIONS, baseline: 0 },
      { name: 'create, default (no prefix)', requests: () => createIn(['']), connections: CONNECTIONS, baseline: 0 },
      { name: 'create, one workspace, 1 connection', requests: () => createIn(['solo']), connections: 1, baseline: 3 },
      { name: 'create, 64 active workspaces, 1 connection', requests: () => createIn(many), connections: 1, baseline: 3 },
    ];
    for (const target of targets) await warm(sandbox, target.requests(), config.warm, target.connections);
    await settle(sandbox.child.pid);
    const slices = targets.map(() => []);
    for (let round = 0; round < config.rounds; round++) {
      for (let k = 0; k < targets.length; k++) {
        const i = (k + round) % targets.length;
        const slice = await load(sandbox, targets[i].requests(), config.slice, targets[i].connections);
        await settle(sandbox.child.pid);
        slices[i].push(slice);
      }
    }
    return targets.map((target, i) => ({
      name: target.name,
      rps: slices[i].reduce((sum, s) => sum + s.total, 0) / (slices[i].length * config.slice),
      p50: median(slices[i].map((s) => s.p50)),
      p99: median(slices[i].map((s) => s.p99)),
      failures: slices[i].reduce((sum, s) => sum + s.failures, 0),
      cpuUs: slices[i].reduce((sum, s) => sum + s.cpuUs * s.total, 0) / slices[i].reduce((sum, s) => sum + s.total, 0),
      // Each round's creates against its baseline's in the same round: how far rounds spread.
      rounds: slices[i].map((s, round) => s.total / slices[target.baseline][round].total),
    }));
  } finally {
    await sandbox.stop();
  }
}

/** Creates 100 "sbx-confirm-" trades in /w/probe, then times the advance that runs their steps (ms). */
async function timeAdvance(url, tag) {
  await pool(100, 10, (i) =>
    call(`${url}/w/probe/api/v1/trades/deposit/create`, {
      method: 'POST',
      headers: { 'x-auth': TOKEN },
      body: { merchant: MERCHANT, order: `sbx-confirm-${tag}-${i}`, amount_cents: 100, amount_currency: 'RUB', type: 'nspk' },
    }),
  );
  const started = performance.now();
  const res = await call(`${url}/w/probe/_sandbox/clock/advance`, { method: 'POST', body: { by: '10s' } });
  const took = performance.now() - started;
  if (res.status !== 200 || JSON.parse(res.body).ran !== 100) throw new Error(`advance answered ${res.status}: ${res.body.slice(0, 200)}`);
  return took;
}

/**
 * Two sandbox processes side by side: in one, 20 other workspaces hold 20,000 pending steps;
 * in the other, nothing is pending elsewhere. The same advance (100 due steps in /w/probe) is
 * timed in both, alternately, so whatever else runs on the machine hits them alike.
 */
async function advancePhase() {
  const args = () => ['--port', '0', '--data', freshDir(), '--auth', 'token', '--clock', 'manual'];
  const [quiet, busy] = await Promise.all([start(SANDBOX_BIN, args()), start(SANDBOX_BIN, args())]);
  try {
    const others = Array.from({ length: 20 }, (_, i) => `busy-${i}`);
    await pool(config.pendingElsewhere, 32, (i) =>
      call(`${busy.url}/w/${others[i % others.length]}/api/v1/trades/deposit/create`, {
        method: 'POST',
        headers: { 'x-auth': TOKEN },
        body: { merchant: MERCHANT, order: `sbx-confirm-${i}`, amount_cents: 100, amount_currency: 'RUB', type: 'nspk' },
      }),
    );
    // The same work in the other process, whose steps are then removed (reset): equally warm, nothing pending.
    await pool(config.pendingElsewhere, 32, (i) =>
      call(`${quiet.url}/w/${others[i % others.length]}/api/v1/trades/deposit/create`, {
        method: 'POST',
        headers: { 'x-auth': TOKEN },
        body: { merchant: MERCHANT, order: `sbx-confirm-${i}`, amount_cents: 100, amount_currency: 'RUB', type: 'nspk' },
      }),
    );
    for (const name of others) await call(`${quiet.url}/w/${name}/_sandbox/reset`, { method: 'POST' });
    const listed = JSON.parse((await call(`${busy.url}/_sandbox/workspaces`)).body).workspaces;
    const pending = listed.filter((w) => others.includes(w.name)).reduce((sum, w) => sum + w.pending_steps, 0);
    for (let i = 0; i < 5; i++) for (const sandbox of [quiet, busy]) await timeAdvance(sandbox.url, `warm-${i}`);
    await Promise.all([settle(quiet.child.pid), settle(busy.child.pid)]);
    const times = { quiet: [], busy: [] };
    for (let r = 0; r < config.advances; r++) {
      const order = r % 2 === 0 ? ['quiet', 'busy'] : ['busy', 'quiet'];
      for (const which of order) times[which].push(await timeAdvance(which === 'quiet' ? quiet.url : busy.url, `r${r}`));
    }
    return { quiet: median(times.quiet), busy: median(times.busy), pending };
  } finally {
    await Promise.all([quiet.stop(), busy.stop()]);
  }
}

/** Polls GET /_sandbox/workspaces (it answers once every stored workspace is loaded). */
async function loadedAfter(url) {
  const res = await call(`${url}/_sandbox/workspaces`);
  return JSON.parse(res.body).workspaces.length - 1;
}

async function startupPhase() {
  const dir = freshDir();
  const seedStarted = performance.now();
  await run(SEED_WORKSPACES, [dir, '100', '1000']);
  const seedSeconds = (performance.now() - seedStarted) / 1000;
  const ready = [];
  const loaded = [];
  const rss = [];
  const cpu = [];
  let count = 0;
  for (let i = 0; i < config.startups; i++) {
    const sandbox = await start(SANDBOX_BIN, ['--port', '0', '--data', dir, '--auth', 'token']);
    ready.push(sandbox.readyMs);
    const readyAt = performance.now();
    count = await loadedAfter(sandbox.url);
    loaded.push(sandbox.readyMs + (performance.now() - readyAt));
    rss.push(rssMb(sandbox.child.pid));
    cpu.push(cpuMs(sandbox.child.pid));
    await sandbox.stop();
  }
  return { ready: median(ready), loaded: median(loaded), worstLoaded: Math.max(...loaded), rss: Math.max(...rss), cpu: median(cpu), count, seedSeconds };
}

const verdict = (ok) => (ok ? 'PASS' : 'FAIL');

async function main() {
  // Other load on the machine lowers every figure; the table says how much there was.
  const loadAtStart = loadavg()[0];
  log(`mode ${mode}; temp folder ${root}${only ? `; only ${only}` : ''}`);
  const rows = [];
  if (runs('create')) {
    log('create: one workspace, 64 active workspaces, default; the first two again with 1 connection');
    const [solo, many, plain, soloOne, manyOne] = await createPhase();
    const createRatio = many.rps / solo.rps;
    const controlRatio = manyOne.rps / soloOne.rps;
    const row = (run, figure, goal, result) => [run.name, int(run.rps), run.p50, run.p99, int(run.cpuUs), figure, goal, result];
    rows.push(
      row(solo, `${fixed(solo.rps / plain.rps)} x default${solo.failures ? ` (${int(solo.failures)} failed)` : ''}`, '', ''),
      row(
        many,
        `${fixed(createRatio, 3)} x one workspace (rounds ${fixed(Math.min(...many.rounds))} to ${fixed(Math.max(...many.rounds))})${many.failures ? ` (${int(many.failures)} failed)` : ''}`,
        '>= 0.85 x one',
        verdict(createRatio >= 0.85 && many.failures === 0),
      ),
      row(plain, '', '', ''),
      row(soloOne, soloOne.failures ? `${int(soloOne.failures)} failed` : '', '', ''),
      row(
        manyOne,
        `${fixed(controlRatio, 3)} x one workspace, 1 connection (rounds ${fixed(Math.min(...manyOne.rounds))} to ${fixed(Math.max(...manyOne.rounds))})${manyOne.failures ? ` (${int(manyOne.failures)} failed)` : ''}`,
        '',
        '',
      ),
    );
  }
  if (runs('advance')) {
    log('clock/advance with and without 20,000 steps pending elsewhere');
    const adv = await advancePhase();
    const advanceRatio = adv.busy / adv.quiet;
    rows.push(
      ['clock/advance (100 steps), nothing pending elsewhere', '', '', '', '', ms(adv.quiet), '', ''],
      [
        `clock/advance (100 steps), ${int(adv.pending)} pending in 20 others`,
        '',
        '',
        '',
        '',
        `${ms(adv.busy)}, ${fixed(advanceRatio)} x`,
        '<= 1.2 x',
        verdict(advanceRatio <= 1.2 && adv.pending >= 20_000),
      ],
    );
  }
  let up;
  if (runs('startup')) {
    log('start-up, 100 workspaces x 1,000 trades');
    up = await startupPhase();
    rows.push(
      ['start-up, 100 workspaces x 1,000 trades: ready line', '', '', '', '', ms(up.ready), '', ''],
      [
        'start-up, 100 workspaces x 1,000 trades: all loaded',
        '',
        '',
        '',
        '',
        `${ms(up.loaded)} (worst ${ms(up.worstLoaded)}; CPU ${ms(up.cpu)}), ${int(up.count)} workspaces, peak RSS ${mb(up.rss)}`,
        '<= 1.5 s',
        verdict(up.loaded <= 1500 && up.count === 100),
      ],
    );
  }
  process.stdout.write(
    [
      '',
      `Workspaces (bench/workspaces.js, mode ${mode}${only ? `, only ${only}` : ''}: ${config.rounds} rounds of ${config.slice} s slices, ${CONNECTIONS} connections (1 where a row says so); advances: median of ${config.advances}; start-ups: median of ${config.startups}; load average at start ${loadAtStart.toFixed(2)}, at end ${loadavg()[0].toFixed(2)}, ${cpus().length} cores):`,
      formatTable(['measure', 'req/s', 'p50 ms', 'p99 ms', 'CPU us/req', 'figure', 'goal', 'result'], rows),
      ...(up
        ? [
            `Seeded 100 x 1,000 trades with the sandbox's own code (bench/seed-workspaces.js, ${fixed(up.seedSeconds, 1)} s). "all loaded": from spawn until GET /_sandbox/workspaces answers, which waits for every stored workspace; the server listens before that and loads them in the background.`,
          ]
        : []),
      '',
    ].join('\n'),
  );
}

main().then(
  () => {
    cleanup();
    process.exit(0);
  },
  (error) => {
    process.stderr.write(`bench/workspaces: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    cleanup();
    process.exit(1);
  },
);
