/**
 * The parallel-workspaces proof under removal: workers create trades in their own workspaces
 * of one `deposit-sandbox serve` process while one workspace is removed with DELETE and two
 * others expire (--workspace-ttl) between bursts of creates; then the process is killed with
 * SIGKILL in the middle of live creates and the data folder is opened again (by a sandbox in this
 * process: what the killed process left is the point, not a second process). Every trade
 * acknowledged (201) is then in the workspace it was acknowledged in, and in no other: present
 * unless a removal of its workspace may have come after it, absent when one surely did.
 * Loopback only; bounded in count (a few hundred creates) and time (events, no fixed sleeps).
 * Runs the build in dist/ (run `npm run build` before running this file alone).
 */
import { request } from 'node:http';
import { afterAll, describe, expect, onTestFinished } from 'vitest';
import { it, test } from './temp-folder.js';
import { startSandbox } from '../src/programmatic/start-sandbox.js';
import { killAll, type Serving, serve } from './data-folder-support.js';
import { DEMO, p2pBody } from './support.js';

/** The file's temporary folder (the fixture removes it after the file's tests). */
let data: string;
test.beforeAll(({ fileFolder }) => {
  data = fileFolder;
});
afterAll(() => {
  killAll();
});

const TTL = 3000;
const LIVE = ['live-0', 'live-1', 'live-2', 'live-3'];
const DELETED = 'deleted-0';
const IDLE = ['idle-0', 'idle-1'];
/**
 * Bound on the creates sent in all. The live workers create as fast as the server answers while
 * the idle workspaces wait for their expiry (the TTL and a sweep, about 6 s), so the bound must
 * outlast that wait on a fast machine: at 4,000 the live workers had stopped before it ended.
 */
const MAX_REQUESTS = 20_000;
/** Bound on every wait for an event of the server (a create, the DELETE, an expiry line). */
const PATIENCE = 60_000;

/** One create request as the test saw it: sent at `sent`, acknowledged at `acked` with `id`. */
interface Sent {
  workspace: string;
  order: string;
  sent: number;
  acked?: number;
  id?: string;
}

/**
 * POST or DELETE on a connection of its own, so that a connection the server closed while idle
 * is never reused; resolves with the status and body, or undefined when there is no answer
 * (the process was killed).
 */
function send(url: string, method: string, body?: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string } | undefined> {
  return new Promise((resolve) => {
    const req = request(url, { method, agent: false, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      res.on('error', () => resolve(undefined));
    });
    req.on('error', () => resolve(undefined));
    req.end(body);
  });
}

/** Resolves once `check()` is true, looked at after each line the server prints; rejects after PATIENCE. */
function until(server: Serving, what: string, check: () => boolean): Promise<void> {
  return new Promise((resolve, reject) => {
    const look = () => {
      if (!check()) return;
      clearTimeout(timer);
      clearInterval(poll);
      server.child.stdout.off('data', look);
      resolve();
    };
    // Conditions on acknowledged creates change without a line printed: looked at every 20 ms too.
    const poll = setInterval(look, 20);
    const timer = setTimeout(() => {
      clearInterval(poll);
      server.child.stdout.off('data', look);
      reject(new Error(`waited ${PATIENCE} ms for ${what}`));
    }, PATIENCE);
    server.child.stdout.on('data', look);
    look();
  });
}

describe('workspaces removed while others create, then kill -9 and restart', () => {
  it('every acknowledged trade is in the workspace it was acknowledged in and in no other: a DELETE and two expiries race live creates', async () => {
    const server = await serve(data, ['--workspace-ttl', `${TTL}ms`, '--max-workspaces', '20']);
    let stdout = '';
    server.child.stdout.on('data', (chunk: string) => (stdout += chunk));
    const expiries = new Map<string, number[]>();
    server.child.stdout.on('data', (chunk: string) => {
      for (const match of chunk.matchAll(/workspace "([^"]+)" expired/g)) expiries.set(match[1]!, [...(expiries.get(match[1]!) ?? []), Date.now()]);
    });

    const requests: Sent[] = [];
    let killed = false;
    let sequence = 0;
    /** Sends one create; resolves with it, or undefined once the process does not answer (it was killed). */
    const create = async (workspace: string): Promise<Sent | undefined> => {
      const sent: Sent = { workspace, order: `${workspace}-${sequence++}`, sent: Date.now() };
      requests.push(sent);
      const answer = await send(`${server.url}/w/${workspace}/api/v1/trades/deposit/create`, 'POST', JSON.stringify(p2pBody({ order: sent.order })), {
        'Content-Type': 'application/json',
        'X-Auth': DEMO.token,
      });
      if (answer?.status === 201) {
        sent.acked = Date.now();
        sent.id = (JSON.parse(answer.body) as { id: string }).id;
      } else if (answer !== undefined) {
        // 409 workspace_removed: it ran in a workspace being removed, and nothing was saved.
        expect(answer.status, `${sent.order}: ${answer.body}`).toBe(409);
      }
      return answer === undefined ? undefined : sent;
    };
    const acked = (workspace: string, after = 0) => requests.filter((r) => r.workspace === workspace && r.acked !== undefined && r.sent > after).length;
    /** Creates one after another in `workspace` until the process is killed. */
    const creating = async (workspace: string) => {
      while (!killed && requests.length < MAX_REQUESTS && (await create(workspace)) !== undefined);
    };

    // The workers that never stop, and the one whose workspace is deleted under it.
    const workers = [...LIVE, DELETED].map(creating);
    // The idle workers: a burst, then nothing until their workspace expired, then creates again.
    const pauses = new Map<string, { from: number; to: number }>();
    const idle = IDLE.map(async (workspace) => {
      for (let i = 0; i < 10; i++) expect((await create(workspace))?.acked, workspace).toBeDefined();
      const from = Date.now();
      await until(server, `the expiry of ${workspace}`, () => (expiries.get(workspace)?.length ?? 0) > 0);
      pauses.set(workspace, { from, to: Date.now() });
      await creating(workspace);
    });

    await until(server, `creates in ${DELETED}`, () => acked(DELETED) >= 15);
    // A create still running when DELETE arrives: its scenario waits 5 s (real time) before saving.
    const scenario = `scenarios:\n  - name: slow-save\n    description: Saves the trade late.\n    match:\n      order: "^${DELETED}-slow-"\n    delay: 5s\n`;
    expect((await send(`${server.url}/w/${DELETED}/_sandbox/scenarios`, 'PUT', scenario, { 'Content-Type': 'application/yaml' }))?.status).toBe(200);
    const slow: Sent = { workspace: DELETED, order: `${DELETED}-slow-1`, sent: Date.now() };
    requests.push(slow);
    const slowAnswer = send(`${server.url}/w/${DELETED}/api/v1/trades/deposit/create`, 'POST', JSON.stringify(p2pBody({ order: slow.order })), {
      'Content-Type': 'application/json',
      'X-Auth': DEMO.token,
    }).then((answer) => ({ answer, at: Date.now() }));
    // A create sent after it is answered: the slow one is under way in the workspace.
    await until(server, `a create after the slow one in ${DELETED}`, () => acked(DELETED, slow.sent) >= 1);
    const deleteSent = Date.now();
    const removed = await send(`${server.url}/w/${DELETED}/_sandbox`, 'DELETE');
    const deleteAnswered = Date.now();
    expect(removed?.status, removed?.body).toBe(200);
    const late = await slowAnswer;
    if (late.answer?.status === 201) {
      // Saved before the removal began (a machine slower than the delay): removed with it.
      expect(late.at, late.answer.body).toBeLessThan(deleteSent);
      slow.acked = late.at;
      slow.id = (JSON.parse(late.answer.body) as { id: string }).id;
    } else {
      // Its delay ended after the removal began: refused, nothing saved in the old workspace or the new one.
      expect(late.answer?.status, late.answer?.body).toBe(409);
    }

    // Killed while every worker is creating: after creates followed the DELETE and both expiries.
    await until(server, 'creates after the removals', () => acked(DELETED, deleteAnswered) >= 5 && IDLE.every((w) => pauses.has(w) && acked(w, pauses.get(w)!.to) >= 5));
    server.child.kill('SIGKILL');
    const killedAt = Date.now();
    killed = true;
    await server.exited;
    await Promise.all([...workers, ...idle]);

    // Started again without expiry, so nothing is removed while it is checked.
    const again = await startSandbox({ data, workspaceTtl: 0 });
    // Closed however the test ends, so that a failure leaves no server in this process.
    onTestFinished(() => again.close());
    const found = new Map<string, { workspace: string; order: string }>();
    const listed = ((await (await fetch(`${again.url}/_sandbox/workspaces`)).json()) as { workspaces: Array<{ name: string }> }).workspaces.map((w) => w.name);
    for (const workspace of listed) {
      const base = workspace === 'default' ? again.url : `${again.url}/w/${workspace}`;
      for (let offset = 0; ; offset += 100) {
        const page = (await (await fetch(`${base}/_sandbox/trades?limit=100&offset=${offset}`)).json()) as { trades: Array<{ id: string; order: string }> };
        for (const trade of page.trades) {
          // In no other: an id is in one workspace only, the one its order was created in.
          expect(found.has(trade.id), trade.id).toBe(false);
          found.set(trade.id, { workspace, order: trade.order });
          expect(trade.order.startsWith(`${workspace}-`), `${trade.order} found in ${workspace}`).toBe(true);
        }
        if (page.trades.length < 100) break;
      }
    }

    // What the test knows of when each workspace may have lost its trades.
    const sends = (workspace: string) => requests.filter((r) => r.workspace === workspace).map((r) => r.sent);
    /** Whether the expiry sweep could have removed `workspace` after time `at`: no request for TTL after some request sent since `at` (or till the kill). */
    const mayExpireAfter = (workspace: string, at: number) => {
      const times = sends(workspace).filter((t) => t >= at);
      return times.some((t, i) => (times[i + 1] ?? killedAt) - t >= TTL);
    };
    let present = 0;
    let absent = 0;
    for (const sent of requests.filter((r) => r.acked !== undefined)) {
      const where = found.get(sent.id!);
      if (where !== undefined) {
        expect(where, `${sent.order} (${sent.id})`).toEqual({ workspace: sent.workspace, order: sent.order });
      }
      const deleted = sent.workspace === DELETED;
      const pause = pauses.get(sent.workspace);
      const mustStay = !(deleted && sent.sent <= deleteAnswered) && !mayExpireAfter(sent.workspace, sent.sent);
      // Acknowledged before the removal began: removed with its workspace, never in the new one.
      const burst = pause !== undefined && sent.acked! <= pause.from && expiries.get(sent.workspace)!.length === 1 && !mayExpireBefore(sends(sent.workspace), pause.from);
      const mustGo = (deleted && sent.acked! < deleteSent) || burst;
      if (mustStay) {
        expect(where, `${sent.order} acknowledged in ${sent.workspace} is missing`).toBeDefined();
        present++;
      }
      if (mustGo) {
        expect(where, `${sent.order} acknowledged before ${sent.workspace} was removed is still there`).toBeUndefined();
        absent++;
      }
    }
    // The proof is not empty: trades made after each removal stayed, those before it went.
    expect(present).toBeGreaterThan(0);
    expect(absent).toBeGreaterThan(0);
    expect(stdout).toContain(`workspace "${IDLE[0]}" expired`);
  });
});

/** Whether requests sent before `end` left a gap of TTL or more (a sweep could have come then). */
function mayExpireBefore(times: number[], end: number): boolean {
  const before = times.filter((t) => t <= end);
  return before.some((t, i) => i + 1 < before.length && before[i + 1]! - t >= TTL);
}
