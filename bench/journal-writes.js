// What a journal record costs, apart from HTTP: the same changes written as one record of 64
// (one busy sandbox: its group commit takes every create of a turn), by 64 workspace stores of
// one change each through the workspaces' journal (what a server does now: one record a turn for
// all of them), and by 64 stores with a journal each (what it did before: 64 records a turn),
// measured in the same run.
//
//   node bench/journal-writes.js [rounds, default 5]      (needs the build in dist/: npm run build)
//
// Real stores and journal files in a temp folder (src/store: Store, JournalAdapter,
// WorkspacesJournal, the journal writer). Each turn puts 64 trade rows and waits until they are
// saved; slices of the layouts take turns, and the medians per change are compared. Two figures: the event loop's CPU (the
// main thread's, read from /proc/self/task/<pid>/stat; it serves every request) and the whole
// process's (the thread pool's write(2) calls too). The create row of
// bench/workspaces.js shows what the difference costs under HTTP load.
// Bounded (a watchdog ends it after 120 s), self-stopping, removes its temp folder.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JournalAdapter } from '../dist/store/journal-adapter.js';
import { Store } from '../dist/store/store.js';
import { WorkspacesJournal } from '../dist/store/workspaces-journal.js';
import { cpuMs } from './lib/processes.js';
import { fixed, formatTable, int, median } from './lib/table.js';

const ROUNDS = Number(process.argv[2] ?? 5);
const JOURNALS = 64;
const SLICE_MS = 1000;

const root = mkdtempSync(join(tmpdir(), 'deposit-sandbox-bench-journal-'));
const watchdog = setTimeout(() => {
  console.error('journal-writes bench: still running after 120 s, stopping');
  rmSync(root, { recursive: true, force: true });
  process.exit(1);
}, 120_000);

/** The main thread's CPU in ms: the event loop's (NaN where /proc has no such file). */
const eventLoopMs = () => cpuMs(`${process.pid}/task/${process.pid}`);

/** A trade as a create stores it (Russian requisites, so the JSON is not ASCII). */
const TEMPLATE = {
  order: 'bench-order',
  merchant: '6f1c2a9e-3b7d-4c52-9a1e-2d4b8f0c7e51',
  state: 'created',
  amount_cents: 31250,
  amount_currency: 'RUB',
  rate: 92.5,
  type: 'nspk',
  requisites: { name: 'Анна С.', number: '+79378915294', bank_name: 'Райффайзенбанк' },
  created_at: '2026-11-28T03:28:58.001Z',
  updated_at: '2026-11-28T03:28:58.001Z',
  history: [{ from: null, to: 'created', at: '2026-11-28T03:28:58.001Z', cause: 'create' }],
};
let rows = 0;

/** One turn: 64 rows spread round-robin over `stores`, then every commit awaited. */
async function turn(stores) {
  const saved = [];
  for (let i = 0; i < JOURNALS; i++) {
    const store = stores[i % stores.length];
    const id = `row-${++rows}`;
    store.trades.put({ ...TEMPLATE, id, order: id });
    saved.push(store.commit());
  }
  await Promise.all(saved);
}

/** Turns for SLICE_MS: changes per second and CPU per change (µs). */
async function slice(stores) {
  const cpu0 = process.cpuUsage();
  const loop0 = eventLoopMs();
  const started = performance.now();
  let turns = 0;
  while (performance.now() - started < SLICE_MS) {
    await turn(stores);
    turns++;
  }
  const wall = performance.now() - started;
  const cpu = process.cpuUsage(cpu0);
  const loop1 = eventLoopMs();
  const changes = turns * JOURNALS;
  return {
    perSecond: (changes * 1000) / wall,
    loopUs: ((loop1 - loop0) * 1000) / changes,
    processUs: (cpu.user + cpu.system) / changes,
  };
}

async function main() {
  const open = (name) => Store.open(new JournalAdapter(join(root, name)));
  // Never past its bound here: the bench measures writes, not the folding a new generation asks for.
  const journal = new WorkspacesJournal(join(root, 'workspaces'), { rotateBytes: 2 ** 40 });
  const openWorkspace = (name) => Store.open(new JournalAdapter(join(root, 'workspaces', name), { workspace: { journal, name } }));
  const one = [await open('one')];
  const shared = await Promise.all(Array.from({ length: JOURNALS }, (_, i) => openWorkspace(`ws-${i}`)));
  const many = await Promise.all(Array.from({ length: JOURNALS }, (_, i) => open(`many-${i}`)));
  const layouts = [
    { name: `1 journal, ${JOURNALS} changes a record`, stores: one, slices: [] },
    { name: `${JOURNALS} workspaces, 1 shared record`, stores: shared, slices: [] },
    { name: `${JOURNALS} journals, 1 change a record`, stores: many, slices: [] },
  ];
  // Warm every layout (JIT, the files).
  for (const layout of layouts) await slice(layout.stores);
  for (let round = 0; round < ROUNDS; round++) {
    for (let k = 0; k < layouts.length; k++) {
      const layout = layouts[(k + round) % layouts.length];
      layout.slices.push(await slice(layout.stores));
    }
  }
  const figures = layouts.map((layout) => ({
    name: layout.name,
    perSecond: median(layout.slices.map((s) => s.perSecond)),
    loopUs: median(layout.slices.map((s) => s.loopUs)),
    processUs: median(layout.slices.map((s) => s.processUs)),
  }));
  for (const layout of layouts) for (const store of layout.stores) await store.close();
  await journal.close();
  const [base, shares, spread] = figures;
  const rows = figures.map((f, i) => [
    f.name,
    int(f.perSecond),
    fixed(f.loopUs, 1),
    fixed(f.processUs, 1),
    i === 0 ? '' : `${fixed(f.loopUs / base.loopUs)} x / ${fixed(f.processUs / base.processUs)} x`,
  ]);
  process.stdout.write(
    [
      `  medians of ${ROUNDS} slices of ${SLICE_MS / 1000} s each, alternating; ${JOURNALS} rows put and saved per turn, trades of ${Buffer.byteLength(JSON.stringify(TEMPLATE))} bytes`,
      formatTable(['layout', 'changes/s', 'event-loop CPU us/change', 'process CPU us/change', 'against 1 journal (event loop / process)'], rows),
      `  a record per store costs ${fixed(spread.loopUs - base.loopUs, 1)} us of the event loop and ${fixed(spread.processUs - base.processUs, 1)} us of the process per change written alone;`,
      `  64 workspaces through one record cost ${fixed(shares.loopUs - base.loopUs, 1)} us and ${fixed(shares.processUs - base.processUs, 1)} us more per change than one store`,
      '',
    ].join('\n'),
  );
}

main().then(
  () => {
    clearTimeout(watchdog);
    rmSync(root, { recursive: true, force: true });
    process.exit(0);
  },
  (error) => {
    console.error(`journal-writes bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    rmSync(root, { recursive: true, force: true });
    process.exit(1);
  },
);
