/**
 * What the crash-order fuzzing (test/crash-order.test.ts) cannot reach, on real processes (the
 * build in dist/: run `npm run build` before running this file alone; the journal at its size
 * limit is test/crash-order-rotation.test.ts):
 * - `--workspace-ttl` after a restart, when every file time is older than the TTL: a workspace
 *   written right after the restart is kept, an expired one goes, and the writes of another
 *   workspace made while it goes survive a kill -9;
 * - a process under `ulimit -n 1024` with a few thousand workspaces: killed with creates in
 *   flight and started again under the same limit, everything acknowledged is there and no
 *   EMFILE is reported.
 * Loopback only; every process and data folder is removed in afterAll.
 */
import { utimesSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanUp, send, startSpawned } from './crash-order.js';
import { DEMO } from './merchants.js';
import { killAll, type SandboxProcess, startProcess, tempDir } from './sandbox-process.js';

afterAll(() => {
  cleanUp();
  // Also removes the data folders tempDir() made.
  killAll();
});

let orders = 0;
const nextOrder = (prefix: string) => `${prefix}-${process.pid}-${++orders}`;

/** One create in `prefix` ('' or /w/<name>); resolves with the trade's id, or undefined when it was not answered (the process died). */
async function create(proc: SandboxProcess, prefix: string): Promise<string | undefined> {
  const body = JSON.stringify({ merchant: DEMO.id, order: nextOrder('lim'), amount_cents: 31250, amount_currency: 'RUB', type: 'any_bank' });
  const answer = await send(proc.port, 'POST', `${prefix}/api/v1/trades/deposit/create`, body, { 'X-Auth': DEMO.token });
  if (answer === undefined) return undefined;
  expect(answer.status, `create in ${prefix}: ${answer.body}`).toBe(201);
  return (JSON.parse(answer.body) as { id: string }).id;
}

/** The ids of a workspace's trades (admin API, page by page). */
async function ids(proc: SandboxProcess, name: string): Promise<string[]> {
  const found: string[] = [];
  for (let offset = 0; ; offset += 1000) {
    const answer = await send(proc.port, 'GET', `/w/${name}/_sandbox/trades?limit=1000&offset=${offset}`);
    expect(answer?.status, answer?.body).toBe(200);
    const page = (JSON.parse(answer!.body) as { trades: Array<{ id: string }> }).trades;
    found.push(...page.map((trade) => trade.id));
    if (page.length < 1000) return found.sort();
  }
}

/** Every workspace with its count of trades, default left out (waits for the workspaces to load). */
async function workspaces(proc: SandboxProcess): Promise<Map<string, number>> {
  const answer = await send(proc.port, 'GET', '/_sandbox/workspaces');
  expect(answer?.status, answer?.body).toBe(200);
  const listed = (JSON.parse(answer!.body) as { workspaces: Array<{ name: string; trades: number }> }).workspaces;
  return new Map(listed.filter((w) => w.name !== 'default').map((w) => [w.name, w.trades]));
}

/** Resolves once the process has printed `text` on stdout; rejects if it exits first. */
function printed(proc: SandboxProcess, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const look = () => {
      if (!proc.stdout().includes(text)) return;
      proc.child.stdout.off('data', look);
      resolve();
    };
    proc.child.stdout.on('data', look);
    look();
    void proc.exited.then(() => reject(new Error(`exited before printing ${JSON.stringify(text)}:\n${proc.stdout()}\n${proc.stderr()}`)));
  });
}

/** Sets the times of every file and folder under `folder` back by `ms`: as if the server had been stopped that long. */
function ageFolder(folder: string, ms: number): void {
  const at = new Date(Date.now() - ms);
  for (const entry of readdirSync(folder, { withFileTypes: true, recursive: true })) utimesSync(join(entry.parentPath, entry.name), at, at);
  utimesSync(folder, at, at);
}

describe('--workspace-ttl after a restart, with every file time older than the TTL', () => {
  for (const stop of ['a clean stop', 'kill -9'] as const) {
    it(`after ${stop}: a workspace written right after the restart is kept, an idle one expires, and another's writes during the expiry survive kill -9`, async () => {
      const data = tempDir();
      const first = await startProcess(['--port', '0', '--data', data, '--workspace-ttl', '0']);
      const acked = new Map<string, string[]>([
        ['keep', []],
        ['stale', []],
        ['busy', []],
      ]);
      for (const [name, list] of acked) for (let i = 0; i < 3; i++) list.push((await create(first, `/w/${name}`))!);
      first.child.kill(stop === 'kill -9' ? 'SIGKILL' : 'SIGTERM');
      const code = await first.exited;
      if (stop === 'a clean stop') expect(code).toBe(0);
      // The server was down for an hour: its snapshots' and journal's times are all older than the TTL.
      ageFolder(data, 3_600_000);

      // The sweep runs every TTL from the start; the first request below comes after the sweep's
      // timer was set (before the ready line), so at the first sweep "keep" was used less than a TTL ago.
      const second = await startProcess(['--port', '0', '--data', data, '--workspace-ttl', '1500ms']);
      acked.get('keep')!.push((await create(second, '/w/keep'))!);
      // "busy" writes one create after another while "stale" expires, and is killed with a create
      // in flight once three more were acknowledged after the expiry was checked.
      let unanswered = 0;
      let killAt = Number.POSITIVE_INFINITY;
      const busy = (async () => {
        // A bound for a hang: the expiry comes after about 1.5 s of creates.
        for (let i = 0; i < 50_000; i++) {
          const id = await create(second, '/w/busy');
          if (id === undefined) {
            unanswered++;
            return;
          }
          acked.get('busy')!.push(id);
          if (acked.get('busy')!.length >= killAt) second.child.kill('SIGKILL');
        }
      })();
      await printed(second, 'workspace "stale" expired');
      expect(second.stdout()).not.toContain('workspace "keep" expired');
      expect(second.stdout()).not.toContain('workspace "busy" expired');
      // Used again, so that the next sweep (a TTL later) keeps it too until the kill below.
      acked.get('keep')!.push((await create(second, '/w/keep'))!);
      const listed = await workspaces(second);
      expect(listed.has('stale')).toBe(false);
      expect(listed.get('keep')).toBe(acked.get('keep')!.length);
      killAt = acked.get('busy')!.length + 3;
      await second.exited;
      await busy;
      expect(unanswered).toBeLessThanOrEqual(1);

      const third = await startProcess(['--port', '0', '--data', data, '--workspace-ttl', '0']);
      const after = await workspaces(third);
      expect([...after.keys()].sort()).toEqual(['busy', 'keep']);
      expect(await ids(third, 'keep'), 'the trades of "keep", acknowledged before the stop and right after the restart').toEqual(acked.get('keep')!.sort());
      // Every acknowledged create of "busy", and at most the one that was not answered.
      const found = await ids(third, 'busy');
      expect(found.filter((id) => !acked.get('busy')!.includes(id)).length).toBeLessThanOrEqual(unanswered);
      expect(
        acked.get('busy')!.filter((id) => !found.includes(id)),
        'acknowledged trades of "busy" missing',
      ).toEqual([]);
      third.child.kill('SIGTERM');
      expect(await third.exited).toBe(0);
    });
  }
});

describe.runIf(process.platform === 'linux')('a 1,024 descriptor limit with a few thousand workspaces', () => {
  const LIMIT = 1024;
  const WORKSPACES = 2500;
  /** Creates at a time: a few dozen test workers. */
  const AT_ONCE = 32;
  const underLimit = (data: string) =>
    startSpawned('bash', ['-c', `ulimit -n ${LIMIT} && exec "${process.execPath}" bin/deposit-sandbox.js --port 0 --data "${data}" --max-workspaces 10000 --workspace-ttl 0`]);

  it(`${WORKSPACES} workspaces under ulimit -n ${LIMIT}, kill -9 with creates in flight, restart under the same limit: everything acknowledged is there, no EMFILE`, async () => {
    const data = tempDir();
    const first = await underLimit(data);
    const acked = new Map<string, string[]>();
    const names = Array.from({ length: WORKSPACES }, (_, i) => `fd-${i}`);
    // One create in each workspace, AT_ONCE at a time; then creates again in the first ones while the process is killed.
    let next = 0;
    const worker = async () => {
      for (let i = next++; i < names.length; i = next++) {
        const id = await create(first, `/w/${names[i]}`);
        acked.set(names[i]!, [id!]);
      }
    };
    await Promise.all(Array.from({ length: AT_ONCE }, worker));
    expect(first.stderr()).not.toMatch(/EMFILE|too many open files/i);
    // Bounded: far fewer descriptors than workspaces.
    expect(readdirSync(`/proc/${first.child.pid}/fd`).length).toBeLessThan(LIMIT / 4);

    // 200 more at once, in workspaces written before; killed once half of them have their answer.
    let settled = 0;
    const inFlight = names.slice(0, 200).map(async (name) => {
      const id = await create(first, `/w/${name}`);
      if (id !== undefined) acked.get(name)!.push(id);
      if (++settled === 100) first.child.kill('SIGKILL');
    });
    await Promise.all(inFlight);
    await first.exited;

    const second = await underLimit(data);
    const listed = await workspaces(second);
    expect(listed.size).toBe(WORKSPACES);
    expect(readdirSync(`/proc/${second.child.pid}/fd`).length).toBeLessThan(LIMIT / 4);
    // As many trades as acknowledged; one more where a create of the last 200 had no answer.
    const wrong = names.filter((name, i) => {
      const count = listed.get(name) ?? 0;
      const expected = acked.get(name)!.length;
      return count < expected || count > expected + (i < 200 ? 1 : 0);
    });
    expect(wrong, 'workspaces whose trades are not those acknowledged').toEqual([]);
    // The ids of the workspaces written twice, where the kill fell.
    const missing: string[] = [];
    for (const name of names.slice(0, 200)) {
      const found = await ids(second, name);
      for (const id of acked.get(name)!) if (!found.includes(id)) missing.push(`${name}: ${id}`);
    }
    expect(missing).toEqual([]);
    expect(second.stderr()).not.toMatch(/EMFILE|too many open files/i);

    // A clean stop under the same limit folds every workspace in; a third start finds them all.
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
    expect(second.stderr()).not.toMatch(/EMFILE|too many open files/i);
    const third = await underLimit(data);
    const again = await workspaces(third);
    expect(names.filter((name) => again.get(name) !== listed.get(name))).toEqual([]);
    third.child.kill('SIGTERM');
    expect(await third.exited).toBe(0);
  }, 180_000);
});
