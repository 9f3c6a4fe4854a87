/**
 * A `kill -9` in the middle of `DELETE /w/<name>/_sandbox` leaves the workspace whole or gone:
 * never stuck at 503 workspace_unavailable, never counted toward --max-workspaces once gone.
 * A real process: the kill is sent the moment the data folder shows the removal under way
 * (fs.watch), with no hook in the product; what it left is then opened by a sandbox in this
 * process, with the same --max-workspaces. Runs the build in dist/ (run `npm run build` before
 * running this file alone).
 */
import { existsSync, linkSync, mkdirSync, readdirSync, rmSync, watch, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, describe, expect, onTestFinished } from 'vitest';
import { it, test } from './temp-folder.js';
import { startSandbox } from '../src/programmatic/start-sandbox.js';
import { killAll, type Serving, serve } from './data-folder-support.js';
import { DEMO, p2pBody } from './support.js';

/** The file's temporary folder, the data folder of its processes (the fixture removes it after the file's tests). */
let data: string;
/** Its workspaces' folders. */
let folder: string;
test.beforeAll(({ fileFolder }) => {
  data = fileFolder;
  folder = join(data, 'workspaces');
});
afterAll(() => {
  killAll();
});

const MAX_WORKSPACES = 2;
const ARGS = ['--max-workspaces', String(MAX_WORKSPACES)];

async function create(url: string, name: string, order: string): Promise<{ status: number; id?: string }> {
  const res = await fetch(`${url}/w/${name}/api/v1/trades/deposit/create`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Auth': DEMO.token },
    body: JSON.stringify(p2pBody({ order })),
  });
  const body = (await res.json()) as { id?: string };
  return { status: res.status, ...(body.id !== undefined ? { id: body.id } : {}) };
}

const read = async (url: string, name: string, id: string) => (await fetch(`${url}/w/${name}/api/v1/trades/${DEMO.id}/${id}`, { headers: { 'X-Token': DEMO.token } })).status;
const listed = async (url: string) => ((await (await fetch(`${url}/_sandbox/workspaces`)).json()) as { workspaces: Array<{ name: string; trades: number }> }).workspaces;

/**
 * DELETE on a connection of its own (a pooled one may have been closed by the server while
 * idle); resolves with the status and body, or 'no answer' when the connection is cut off.
 */
function sendDelete(url: string): Promise<string> {
  return new Promise((resolve) => {
    const req = request(url, { method: 'DELETE', agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve(`${res.statusCode} ${body}`));
      res.on('error', () => resolve('no answer'));
    });
    req.on('error', () => resolve('no answer'));
    req.end();
  });
}

/**
 * Sends DELETE /w/<name>/_sandbox and kills the process with SIGKILL from inside the watcher's
 * callback, the moment `watched` shows a file named as `seen` says. Resolves with that file's
 * name and the DELETE's status ('no answer' when the kill cut it off).
 */
async function deleteAndKill(sandbox: Serving, name: string, watched: string, seen: (file: string) => boolean): Promise<{ file: string; answer: string }> {
  let watcher: ReturnType<typeof watch> | undefined;
  const file = new Promise<string>((resolve) => {
    watcher = watch(watched, (_event, changed) => {
      if (changed === null || !seen(changed)) return;
      sandbox.child.kill('SIGKILL');
      watcher?.close();
      resolve(changed);
    });
  });
  const answer = sendDelete(`${sandbox.url}/w/${name}/_sandbox`);
  // A DELETE answered before the watcher saw the file: the test says so rather than waiting.
  const found = await Promise.race([file, answer.then((got) => Promise.reject(new Error(`DELETE answered before ${watched} showed the file: ${got}\n${sandbox.stderr()}`)))]);
  await sandbox.exited;
  return { file: found, answer: await answer };
}

/** After the restart: the workspace is whole (every trade) or gone (404, never 503), and the limit counts what is listed. */
async function checkWholeOrGone(url: string, name: string, ids: string[]): Promise<'whole' | 'gone'> {
  const before = await listed(url);
  const entry = before.find((w) => w.name === name);
  const statuses = await Promise.all(ids.map((id) => read(url, name, id)));
  if (entry !== undefined) expect(statuses.every((s) => s === 200) && entry.trades === ids.length, `${name}: ${statuses} ${entry.trades}`).toBe(true);
  else
    expect(
      statuses.every((s) => s === 404),
      `${name}: ${statuses}`,
    ).toBe(true);
  // No tombstone is ever listed, loaded or left on disk.
  expect(readdirSync(folder).filter((f) => f.includes('@removed-'))).toEqual([]);
  // --max-workspaces 2: every place not listed can be taken, and no more.
  const names = (await listed(url)).map((w) => w.name).filter((n) => n !== 'default');
  expect(names).toEqual(before.map((w) => w.name).filter((n) => n !== 'default'));
  for (let i = names.length; i < 2; i++) expect((await create(url, `new-${name}-${i}`, `n-${i}`)).status).toBe(201);
  expect((await create(url, `one-too-many-${name}`, 'x')).status).toBe(429);
  return entry === undefined ? 'gone' : 'whole';
}

/**
 * Files a tool left in a workspace's folder, enough that deleting the folder is still under way
 * when the test's kill lands.
 * One empty file and hard links to it: each name is unlinked as a file is, and a link costs a
 * fraction of creating a file.
 */
function leaveFiles(workspace: string): void {
  const left = join(workspace, 'left-behind');
  mkdirSync(left);
  writeFileSync(join(left, 'f0'), '');
  for (let i = 1; i < 10_000; i++) linkSync(join(left, 'f0'), join(left, `f${i}`));
}

describe('a kill -9 in the middle of DELETE /w/<name>/_sandbox', () => {
  it('while the renamed folder is being deleted: after a restart the workspace is gone, answers 404 (not 503), and its place is free', async () => {
    const first = await serve(data, ARGS);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const made = await create(first.url, 'big', `big-${i}`);
      expect(made.status).toBe(201);
      ids.push(made.id!);
    }
    expect((await create(first.url, 'other', 'other-1')).status).toBe(201);
    // Deleting the folder now takes long enough for the kill, sent when it is renamed, to land in the middle.
    leaveFiles(join(folder, 'big'));

    const { file, answer } = await deleteAndKill(first, 'big', folder, (f) => f.startsWith('big@removed-'));
    // Cut off between the rename and the end of the deletion: a tombstone is left, partly deleted.
    expect(answer).toBe('no answer');
    expect(existsSync(join(folder, file))).toBe(true);

    const second = await startSandbox({ data, maxWorkspaces: MAX_WORKSPACES });
    // Closed however the test ends, so that a failure leaves no server in this process.
    onTestFinished(() => second.close());
    expect(await checkWholeOrGone(second.url, 'big', ids)).toBe('gone');
    expect(
      readdirSync(folder, { withFileTypes: true })
        .flatMap((entry) => (entry.isDirectory() && entry.name !== '@journal' ? [entry.name] : []))
        .sort(),
    ).toEqual(['new-big-1', 'other']);
  });

  it('while its journal is folded into the snapshot, before the rename: after a restart it is whole or gone, never 503, and counted only if listed', async () => {
    rmSync(folder, { recursive: true, force: true });
    const first = await serve(data, ARGS);
    const ids: string[] = [];
    for (let batch = 0; batch < 10; batch++) {
      for (const made of await Promise.all(Array.from({ length: 20 }, (_, i) => create(first.url, 'journal', `j-${batch}-${i}`)))) {
        expect(made.status).toBe(201);
        ids.push(made.id!);
      }
    }
    leaveFiles(join(folder, 'journal'));
    // The removal folds the journal into db.json (through .db.json.tmp) before it renames the
    // folder and deletes it (long enough, with the files left behind): the kill lands in between.
    const { answer } = await deleteAndKill(first, 'journal', join(folder, 'journal'), (f) => f === '.db.json.tmp');
    expect(answer).toBe('no answer');

    const second = await startSandbox({ data, maxWorkspaces: MAX_WORKSPACES });
    // Closed however the test ends, so that a failure leaves no server in this process.
    onTestFinished(() => second.close());
    expect(['whole', 'gone']).toContain(await checkWholeOrGone(second.url, 'journal', ids));
  });
});
