// npm run bench [-- --quick | --full]
//
// Starts a bare node:http server and the sandbox as real processes, loads them with
// autocannon over 127.0.0.1 in the same run, and prints one table with every goal of the
// store and its PASS/FAIL. Everything is bounded in time, stops by itself and removes its
// temp folders.
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { call, closeAgent, createTrades, now, probe, startReceiver } from './lib/callbacks.js';
import { measureContainer } from './container.js';
import { CONNECTIONS, createRequests, getRequests, load, warm } from './lib/load.js';
import { BARE_SERVER, FAULTY_RECEIVERS, FUZZER, killAll, run, SANDBOX_BIN, SEED, SERVER_LIMITS, settle, start } from './lib/processes.js';
import { fixed, formatTable, int, mb, median, ms } from './lib/table.js';

const WORKSPACES = fileURLToPath(new URL('./workspaces.js', import.meta.url));
const SCENARIO_MATCHING = fileURLToPath(new URL('./scenario-matching.js', import.meta.url));
const PROFILES = fileURLToPath(new URL('./profiles.js', import.meta.url));
const PACKAGE_IMPORT = fileURLToPath(new URL('./package-import.js', import.meta.url));
const CLI_START = fileURLToPath(new URL('./cli-start.js', import.meta.url));
const JOURNAL_WRITES = fileURLToPath(new URL('./journal-writes.js', import.meta.url));
const SESSIONS = fileURLToPath(new URL('./sessions.js', import.meta.url));

const USAGE = `usage: npm run bench [-- --quick | --full]
  --quick  3 rounds of 1.5 s load slices per server, 3 start-ups per store size (about 3.5 minutes)
  --full   8 rounds of 2 s load slices per server, 7 start-ups per store size (about 6.5 minutes; the default)
Both end with the workspaces phases of bench/workspaces.js in the same mode.`;

const argv = process.argv.slice(2);
if (argv.includes('--help') || argv.some((arg) => !['--quick', '--full'].includes(arg))) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(argv.includes('--help') ? 0 : 2);
}
const mode = argv.includes('--quick') ? 'quick' : 'full';
const config = {
  quick: { rounds: 3, slice: 1.5, warm: 1, startups: 3, trades: 100_000, callbacks: 1_000, faultySeconds: 3, watchdogMin: 16 },
  full: { rounds: 8, slice: 2, warm: 2, startups: 7, trades: 100_000, callbacks: 1_000, faultySeconds: 5, watchdogMin: 24 },
}[mode];

const root = mkdtempSync(join(tmpdir(), 'deposit-sandbox-bench-'));
let cleaned = false;
const cleanup = () => {
  if (cleaned) return;
  cleaned = true;
  killAll();
  closeAgent();
  rmSync(root, { recursive: true, force: true });
};
const abort = (message, code = 1) => {
  process.stderr.write(`bench: ${message}\n`);
  cleanup();
  process.exit(code);
};
process.once('SIGINT', () => abort('interrupted', 130));
process.once('SIGTERM', () => abort('terminated', 143));
// The container phase (a podman build and a few starts) gets 6 minutes more.
const watchdogMin = config.watchdogMin + 6;
setTimeout(() => abort(`still running after ${watchdogMin} minutes; stopped`), watchdogMin * 60_000).unref();

const log = (text) => process.stderr.write(`bench: ${text}\n`);
let dirs = 0;
const freshDir = () => join(root, `data-${++dirs}`);
const sandboxArgs = (dir) => ['--port', '0', '--data', dir, '--auth', 'token'];

/** Stops sandboxes that keep a store with SIGTERM; a stop that does not exit 0 (the store not saved) ends the run. */
async function stopSaving(...sandboxes) {
  for (const sandbox of sandboxes) {
    const code = await sandbox.stop();
    if (code !== 0) throw new Error(`the sandbox exited with ${code} on SIGTERM:\n${sandbox.stderr()}`);
  }
}

/** Spawns the sandbox `count` times on `dir` (or a fresh folder each time): ready ms and peak RSS. */
async function startups(count, dir) {
  const ready = [];
  const rss = [];
  for (let i = 0; i < count; i++) {
    const sandbox = await start(SANDBOX_BIN, sandboxArgs(dir ?? freshDir()));
    ready.push(sandbox.readyMs);
    rss.push(sandbox.rssMb);
    await sandbox.stop();
  }
  return { readyMs: median(ready), worstMs: Math.max(...ready), rssMb: Math.max(...rss) };
}

/**
 * Loads every target in turn, `config.rounds` times, for `config.slice` seconds each, so
 * that whatever else runs on the machine affects them alike; the order rotates each round,
 * and each slice waits for its server to go idle before the next one starts.
 * Returns per target: req/s over all its slices, the median p50 and p99 of the slices, CPU
 * per request overall, failures, and the slices themselves.
 */
async function interleave(targets) {
  const slices = targets.map(() => []);
  for (let round = 0; round < config.rounds; round++) {
    for (let k = 0; k < targets.length; k++) {
      const i = (k + round) % targets.length;
      const { server, requests } = targets[i];
      const slice = await load(server, requests(), config.slice);
      // Work the slice left behind (a compaction, a GC) is charged to it and never overlaps the next server's slice.
      const after = await settle(server.child.pid);
      slices[i].push({ ...slice, cpuUs: slice.cpuUs + (after * 1000) / slice.total });
    }
  }
  return slices.map((runs) => ({
    rps: runs.reduce((sum, run) => sum + run.total, 0) / (runs.length * config.slice),
    p50: median(runs.map((run) => run.p50)),
    p99: median(runs.map((run) => run.p99)),
    cpuUs: runs.reduce((sum, run) => sum + run.cpuUs * run.total, 0) / runs.reduce((sum, run) => sum + run.total, 0),
    failures: runs.reduce((sum, run) => sum + run.failures, 0),
    runs,
  }));
}

/**
 * Sends `ids.length` transitions to confirmed, `BATCH` at a time every `BATCH_EVERY_MS`
 * (1,000 in about a second); resolves with how many were not answered 200.
 */
const BATCH = 50;
const BATCH_EVERY_MS = 50;
async function pacedTransitions(url, ids) {
  let refused = 0;
  const batches = [];
  for (let i = 0; i < ids.length; i += BATCH) {
    const batch = ids.slice(i, i + BATCH);
    batches.push(
      new Promise((resolve) => setTimeout(resolve, (i / BATCH) * BATCH_EVERY_MS)).then(() =>
        Promise.all(
          batch.map(async (id) => {
            const res = await call(`${url}/_sandbox/trades/${id}/transition`, { method: 'POST', body: { state: 'confirmed' } });
            if (res.status !== 200) refused++;
          }),
        ),
      ),
    );
  }
  await Promise.all(batches);
  return refused;
}

/**
 * Moves `targets` to confirmed (paced as above) while the probe measures GET latency; resolves
 * once the receiver has answered a callback for each of them (or after 15 s).
 */
async function fanOut(sandbox, receiver, targets, probeIds) {
  const busyProbe = await probe(sandbox.url, probeIds);
  const startedAt = now();
  const refused = await pacedTransitions(sandbox.url, targets);
  const allDone = () => receiver.count(targets, 'confirmed') === targets.length;
  await receiver.until(allDone, 15_000);
  const busy = await busyProbe.stop();
  const delivered = receiver.count(targets, 'confirmed');
  const seconds = (receiver.lastAnswer(targets, 'confirmed') - startedAt) / 1000;
  return { delivered, total: targets.length, refused, seconds: allDone() ? seconds : Number.NaN, busy };
}

/**
 * 1,000 state changes whose receiver holds each callback 100 ms: time until all are
 * delivered, and the API's latency meanwhile, against the same latency idle and during the
 * same transitions on trades without a callback_url. Like the load rows, it is measured
 * after warm-up: `config.warm` fan-outs of their own first (the first one after start-up runs
 * on cold code in the sandbox, the receiver, the probe and this driver alike, which share
 * two cores); the first is reported too.
 */
async function callbackFanOut() {
  const sandbox = await start(SANDBOX_BIN, sandboxArgs(freshDir()));
  const receiver = await startReceiver(100);
  try {
    const ids = await createTrades(sandbox.url, config.callbacks + 1, { callback_url: receiver.url });
    const [check, ...targets] = ids;
    const warmUps = [];
    for (let i = 0; i < config.warm; i++) warmUps.push(await createTrades(sandbox.url, config.callbacks, { callback_url: receiver.url }));
    const control = await createTrades(sandbox.url, config.callbacks);
    const probeIds = await createTrades(sandbox.url, 100);
    const tried = await call(`${sandbox.url}/_sandbox/trades/${check}/transition`, { method: 'POST', body: { state: 'confirmed' } });
    if (tried.status !== 200) return { skipped: `POST /_sandbox/trades/:id/transition answered ${tried.status}: ${tried.body.slice(0, 120)}` };
    await receiver.until(() => receiver.count([check], 'confirmed') === 1, 5_000);
    if (receiver.count([check], 'confirmed') !== 1) return { skipped: 'no callback arrived for a confirmed trade within 5 s' };

    const warmProbe = await probe(sandbox.url, probeIds);
    await new Promise((resolve) => setTimeout(resolve, 500));
    await warmProbe.stop();
    const firstIdleProbe = await probe(sandbox.url, probeIds);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const firstIdle = await firstIdleProbe.stop();
    const warmRuns = [];
    for (const set of warmUps) warmRuns.push(await fanOut(sandbox, receiver, set, probeIds));

    const idleProbe = await probe(sandbox.url, probeIds);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const idle = await idleProbe.stop();

    const controlProbe = await probe(sandbox.url, probeIds);
    const controlRefused = await pacedTransitions(sandbox.url, control);
    await new Promise((resolve) => setTimeout(resolve, 150));
    const withoutCallbacks = await controlProbe.stop();

    const measured = await fanOut(sandbox, receiver, targets, probeIds);
    const refused = measured.refused + controlRefused + warmRuns.reduce((sum, run) => sum + run.refused, 0);
    return { ...measured, refused, idle, withoutCallbacks, first: warmRuns[0] && { ...warmRuns[0], idle: firstIdle } };
  } finally {
    await receiver.close();
    await sandbox.stop();
  }
}

const verdict = (ok) => (ok ? 'PASS' : 'FAIL');

/** Runs one of the bench's own scripts as a phase: its output, or a line saying why it was not measured. */
async function phase(label, script, args, { timeoutMs, indent = '' }) {
  log(label);
  try {
    const output = await run(script, args, { timeoutMs });
    // Indented output keeps its first line's indent.
    return indent ? output.trimEnd() : output.trim();
  } catch (error) {
    return `${indent}not measured: ${error.message.split('\n')[0]}`;
  }
}

async function main() {
  const started = new Date();
  const loadAtStart = loadavg()[0];
  log(`mode ${mode}: ${config.rounds} rounds of ${config.slice} s load slices, ${CONNECTIONS} connections, temp folder ${root}`);

  log('sandbox start-ups, empty store');
  const upEmpty = await startups(config.startups);

  log(`seeding ${int(config.trades)} trades through the store code (bench/seed.js)`);
  const seeded = freshDir();
  const idsFile = join(root, 'seeded-ids.json');
  const seedStart = performance.now();
  await run(SEED, [seeded, String(config.trades), idsFile]);
  const seedSeconds = (performance.now() - seedStart) / 1000;
  const seededIds = JSON.parse(readFileSync(idsFile, 'utf8'));

  log(`sandbox start-ups, ${int(config.trades)} trades`);
  const upFull = await startups(config.startups, seeded);

  log('load: bare node:http, sandbox --in-memory, sandbox on a fresh store, sandbox on the seeded store');
  // The get rows read stores of the sizes they name: the create slices add 200,000 or more
  // trades, so the reads run on servers started after them, one on a copy of the seeded folder
  // taken before any create.
  const seededForGets = freshDir();
  cpSync(seeded, seededForGets, { recursive: true });
  const bare = await start(BARE_SERVER, []);
  const memory = await start(SANDBOX_BIN, ['--port', '0', '--in-memory', '--auth', 'token']);
  const fresh = await start(SANDBOX_BIN, sandboxArgs(freshDir()));
  const full = await start(SANDBOX_BIN, sandboxArgs(seeded));
  for (const server of [bare, memory, fresh, full]) {
    await warm(server, createRequests(), config.warm);
    await settle(server.child.pid);
  }
  const [barePost, inMemory, freshCreate, fullCreate] = await interleave([
    { server: bare, requests: () => createRequests() },
    { server: memory, requests: () => createRequests() },
    { server: fresh, requests: () => createRequests() },
    { server: full, requests: () => createRequests() },
  ]);
  await memory.stop();
  await stopSaving(fresh, full);
  const freshReads = await start(SANDBOX_BIN, sandboxArgs(freshDir()));
  const fullReads = await start(SANDBOX_BIN, sandboxArgs(seededForGets));
  const freshIds = await createTrades(freshReads.url, 500);
  for (const [server, ids] of [
    [bare, ['x']],
    [freshReads, freshIds],
    [fullReads, seededIds],
  ]) {
    await warm(server, getRequests(ids), config.warm);
    await settle(server.child.pid);
  }
  const [bareGet, freshGet, fullGet] = await interleave([
    { server: bare, requests: () => getRequests(['x']) },
    { server: freshReads, requests: () => getRequests(freshIds) },
    { server: fullReads, requests: () => getRequests(seededIds) },
  ]);
  await bare.stop();
  await stopSaving(freshReads, fullReads);
  const empty = { create: freshCreate, get: freshGet };
  const fullRuns = { create: fullCreate, get: fullGet };

  log('callback fan-out');
  let fan;
  try {
    fan = await callbackFanOut();
  } catch (error) {
    fan = { skipped: error.message.split('\n')[0] };
  }

  const faulty = await phase('faulty callback receivers', FAULTY_RECEIVERS, [String(config.faultySeconds)], { timeoutMs: 150_000 });

  log('container image (podman)');
  let container;
  try {
    container = await measureContainer({ starts: config.startups, log });
  } catch (error) {
    container = { skipped: error.message.split('\n')[0] };
  }

  const limits = await phase('scheduler cost, memory per trade, pipelining bound (bench/server-limits.js)', SERVER_LIMITS, [`--${mode}`], { timeoutMs: 300_000 });

  const fuzzer = await phase('callback fuzzer and the cost of mistake counting', FUZZER, [String(config.rounds)], { timeoutMs: 200_000, indent: '  ' });

  const matching = await phase('scenario matching, RE2 against RegExp (bench/scenario-matching.js)', SCENARIO_MATCHING, [String(config.rounds)], { timeoutMs: 150_000, indent: '  ' });

  const profiles = await phase('request signing under a provider profile (bench/profiles.js)', PROFILES, [String(config.rounds)], { timeoutMs: 150_000, indent: '  ' });

  const packageImport = await phase('importing the package, bundle against the tsc build (bench/package-import.js)', PACKAGE_IMPORT, [String(config.rounds)], { timeoutMs: 150_000, indent: '  ' });

  const cliStart = await phase("a serve start with the CLI's code cache, against one compiled from source (bench/cli-start.js)", CLI_START, [String(config.rounds)], {
    timeoutMs: 150_000,
    indent: '  ',
  });

  const sessions = await phase('sessions: recording, forks, replay, per-test cost (bench/sessions.js)', SESSIONS, [String(config.rounds)], { timeoutMs: 360_000, indent: '  ' });

  const journal = await phase('journal records: one store, 64 workspaces through one record, 64 journals (bench/journal-writes.js)', JOURNAL_WRITES, [String(config.rounds)], {
    timeoutMs: 150_000,
    indent: '  ',
  });

  log('workspaces (bench/workspaces.js)');
  let workspaces;
  try {
    workspaces = (await run(WORKSPACES, [`--${mode}`], { timeoutMs: 480_000 }))
      .split('\n')
      .filter((line) => !line.startsWith('bench/workspaces:'))
      .join('\n')
      .trim();
  } catch (error) {
    workspaces = `Workspaces: not measured: ${error.message.split('\n')[0]}`;
  }

  const k = `${Math.round(config.trades / 1000)}k`;
  /** a's requests over b's in the same slices (same rounds, same slice length). */
  const ratio = (a, b) => a.rps / b.rps;
  const clean = (run) => (run.failures === 0 ? '' : ` (${int(run.failures)} failed)`);
  /** a over b round by round (one round's slices run back to back, all of the same length): the lowest and the highest. */
  const rounds = (a, b) => {
    const each = a.runs.map((run, i) => run.total / b.runs[i].total);
    return ` (rounds ${fixed(Math.min(...each))} to ${fixed(Math.max(...each))})`;
  };
  const createRatio = ratio(empty.create, barePost);
  const flatRatio = ratio(fullRuns.create, empty.create);
  const us = (run) => (Number.isFinite(run.cpuUs) ? int(run.cpuUs) : '-');
  const load_ = (name, run, base) => [name, int(run.rps), run.p50, run.p99, fixed(ratio(run, base)), us(run)];
  const rows = [
    [...load_('bare node:http, POST', barePost, barePost), '', '', ''],
    [...load_('bare node:http, GET', bareGet, bareGet), '', '', ''],
    [...load_('create, --in-memory (no writes)', inMemory, barePost), `${fixed(ratio(inMemory, barePost))} x bare${rounds(inMemory, barePost)}${clean(inMemory)}`, '', ''],
    [
      ...load_('create, fresh store', empty.create, barePost),
      `${fixed(createRatio, 3)} x bare${rounds(empty.create, barePost)}${clean(empty.create)}`,
      '>= 0.45 x bare',
      verdict(createRatio >= 0.45 && empty.create.failures === 0),
    ],
    [
      ...load_(`create, ${k} trades stored`, fullRuns.create, barePost),
      `${fixed(flatRatio)} x fresh${clean(fullRuns.create)}`,
      '>= 0.90 x fresh',
      verdict(flatRatio >= 0.9 && fullRuns.create.failures === 0),
    ],
    [...load_('get, fresh store', empty.get, bareGet), `p99 ${empty.get.p99} ms${clean(empty.get)}`, '', ''],
    [...load_(`get, ${k} trades stored`, fullRuns.get, bareGet), `p99 ${fullRuns.get.p99} ms${clean(fullRuns.get)}`, 'p99 <= 5 ms', verdict(fullRuns.get.p99 <= 5 && fullRuns.get.failures === 0)],
    ['start-up, empty store', '', '', '', '', '', `${ms(upEmpty.readyMs)} (worst ${ms(upEmpty.worstMs)}), ${mb(upEmpty.rssMb)}`, '<= 250 ms', verdict(upEmpty.readyMs <= 250)],
    [
      `start-up, ${k} trades`,
      '',
      '',
      '',
      '',
      '',
      `${ms(upFull.readyMs)} (worst ${ms(upFull.worstMs)}), ${mb(upFull.rssMb)}`,
      '<= 1.5 s, <= 250 MB',
      verdict(upFull.readyMs <= 1500 && upFull.rssMb <= 250),
    ],
  ];
  if (fan.skipped) {
    rows.push([`callbacks, ${int(config.callbacks)} x 100 ms hold`, '', '', '', '', '', `not measured: ${fan.skipped}`, '<= 3 s', 'n/a']);
  } else {
    const latency = fan.busy.p50 / fan.idle.p50;
    rows.push(
      [
        `callbacks, ${int(config.callbacks)} x 100 ms hold`,
        '',
        '',
        '',
        '',
        '',
        `${int(fan.delivered)}/${int(fan.total)} in ${Number.isFinite(fan.seconds) ? `${fixed(fan.seconds)} s` : '> 15 s'}`,
        '<= 3 s',
        verdict(fan.delivered === fan.total && fan.seconds <= 3 && fan.refused === 0),
      ],
      ['get during those callbacks', '', fixed(fan.busy.p50), fixed(fan.busy.p99), '', '', `p50 ${fixed(latency)} x idle`, 'p50 <= 2 x idle', verdict(latency <= 2)],
      ['get idle', '', fixed(fan.idle.p50), fixed(fan.idle.p99), '', '', '', '', ''],
      ['get, same transitions, no callbacks', '', fixed(fan.withoutCallbacks.p50), fixed(fan.withoutCallbacks.p99), '', '', `p50 ${fixed(fan.withoutCallbacks.p50 / fan.idle.p50)} x idle`, '', ''],
    );
    if (fan.first) {
      const { first } = fan;
      rows.push(
        [
          'first fan-out after start-up (cold)',
          '',
          '',
          '',
          '',
          '',
          `${int(first.delivered)}/${int(first.total)} in ${Number.isFinite(first.seconds) ? `${fixed(first.seconds)} s` : '> 15 s'}`,
          '<= 3 s',
          verdict(first.delivered === first.total && first.seconds <= 3 && first.refused === 0),
        ],
        ['get during the first fan-out', '', fixed(first.busy.p50), fixed(first.busy.p99), '', '', `p50 ${fixed(first.busy.p50 / first.idle.p50)} x idle`, '', ''],
      );
    }
  }

  if (container.skipped) {
    rows.push(['container image', '', '', '', '', '', `not measured: ${container.skipped}`, '<= 150 MB over base', 'n/a']);
  } else {
    const cleanStops = container.exitCodes.every((code) => code === 0);
    rows.push(
      ['container image size', '', '', '', '', '', `${mb(container.overBaseMb)} over ${container.base}`, '<= 150 MB over base', verdict(container.overBaseMb <= 150)],
      ['container run to healthy', '', '', '', '', '', `${ms(container.readyMs)} (worst ${ms(container.worstReadyMs)})`, '<= 1.5 s', verdict(container.readyMs <= 1500)],
      ['container HEALTHCHECK command', '', '', '', '', '', `${ms(container.checkMs)} (podman healthcheck run)`, '', ''],
      [
        'container SIGTERM to exit',
        '',
        '',
        '',
        '',
        '',
        `${ms(container.stopMs)} (podman stop), exit ${[...new Set(container.exitCodes)].join('/')}`,
        '<= 2 s, exit 0',
        verdict(cleanStops && container.stopMs <= 2000),
      ],
    );
  }

  const cores = cpus().length;
  const gib = (totalmem() / 2 ** 30).toFixed(0);
  const output = [
    '',
    `deposit-sandbox bench, ${started.toISOString().slice(0, 16).replace('T', ' ')} UTC, node ${process.version}, ${cores} cores, ${gib} GiB, ${process.platform}`,
    `mode ${mode}: ${config.rounds} rounds of ${config.slice} s slices per server after ${config.warm} s warm-up, ${CONNECTIONS} connections, 127.0.0.1, unique orders, token auth; load average at start ${loadAtStart.toFixed(2)}, at end ${loadavg()[0].toFixed(2)}`,
    '',
    formatTable(['measure', 'req/s', 'p50 ms', 'p99 ms', 'x bare', 'CPU us/req', 'figure', 'goal', 'result'], rows),
    '',
    `Seeded ${int(config.trades)} trades by writing the store files with the sandbox's own code (bench/seed.js, ${fixed(seedSeconds, 1)} s), not over HTTP.`,
    'Load: the servers run side by side and are loaded in turn, in slices, rotating the order each round, so other load on the machine hits them alike; req/s is over all slices of a server, p50 and p99 are medians over its slices. "rounds A to B" gives the lowest (A) and the highest (B) ratio of the slices of one round; the goal is judged on all slices together. The get rows run on servers started after the create slices (which add 200,000 or more trades), one of them on a copy of the seeded folder taken before any create, so each store holds the trades its row names.',
    `Start-up: median of ${config.startups} spawns from process spawn to the ready line; RSS is the largest peak (VmHWM) seen.`,
    'CPU us/req: CPU time (user + system) the server process used per request, during its slices and until it went idle after each (compactions included); the load generator shares the 2 cores.',
    `Callbacks: transitions sent ${BATCH} every ${BATCH_EVERY_MS} ms; time from the first one to the receiver answering the last callback. GET latency: a separate process sends one GET trade request every 2 ms (open loop; ms, exact), idle, during the same transitions on trades without callback_url, and during the fan-out. The fan-out is measured after ${config.warm} warm-up fan-out(s) of 1,000 (as the load rows are after warm-up); the first one after start-up, on cold code in every process of the run, is shown as it came, for the record.`,
    '',
    container.skipped
      ? 'Container: not measured.'
      : `Container: the image built from the Dockerfile (${fixed(container.buildSeconds, 0)} s) with podman on ${container.base}; size is podman's image size minus the base's; run to healthy is the median of ${container.starts} starts from spawning \`podman run -d --network host\` to the first 200 from /_sandbox/health polled every 10 ms from the host (in-memory store); the HEALTHCHECK row is one \`podman healthcheck run\` (podman exec overhead included).`,
    '',
    'API latency while callback receivers misbehave (bench/faulty-receivers.js, a fresh --in-memory sandbox):',
    faulty,
    '',
    'Scheduler cost, memory per trade and the pipelining bound (bench/server-limits.js; memory is resident memory of a sandbox process, after minus before):',
    limits,
    'Callback fuzzer and integration report (bench/fuzzer.js):',
    fuzzer,
    'Scenario regexes matched with RE2 (re2js), against RegExp (bench/scenario-matching.js):',
    matching,
    "Signed creates under a provider profile, against the sandbox profile's own signing (bench/profiles.js):",
    profiles,
    "A merchant's test process importing the package, against the tsc build it is bundled from (bench/package-import.js):",
    packageImport,
    "A `serve` start with the CLI's code cache, against the same start compiled from source (bench/cli-start.js):",
    cliStart,
    'Sessions: what recording costs a create, forks of a prepared workspace, a replay of one hour, what a test pays for a clean start (bench/sessions.js):',
    sessions,
    "Journal records, apart from HTTP: one busy sandbox, 64 busy workspaces through the workspaces' journal, and 64 stores with a journal each (bench/journal-writes.js):",
    journal,
    workspaces,
    '',
  ].join('\n');
  process.stdout.write(output);
}

main().then(
  () => {
    cleanup();
    process.exit(0);
  },
  (error) => abort(error instanceof Error ? (error.stack ?? error.message) : String(error)),
);
