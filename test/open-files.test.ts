/**
 * File descriptors stay bounded (a real process under a low `ulimit -n`): every workspace writes
 * the one workspaces' journal, so hundreds of workspaces leave the default workspace (and every
 * other) working, and a clean stop folds them all in without running out of descriptors.
 */
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect } from 'vitest';
import { folderIn, it, test } from './temp-folder.js';
import { DEMO, nextOrder } from './support.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const READY = /^deposit-sandbox listening on (http:\/\/127\.0\.0\.1:\d+)$/m;
const WORKSPACES = 300;
const LIMIT = 256;

const stops: Array<() => void> = [];
afterAll(() => {
  for (const stop of stops) stop();
});

/** The file's temporary folder: the process runs on it until afterAll stops it. */
let root: string;
test.beforeAll(({ fileFolder }) => {
  root = fileFolder;
});

async function create(url: string, prefix: string): Promise<number> {
  const res = await fetch(`${url}${prefix}/api/v1/trades/deposit/create`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Auth': DEMO.token },
    body: JSON.stringify({ merchant: DEMO.id, order: nextOrder('fd'), amount_cents: 10000, amount_currency: 'RUB', type: 'any_bank' }),
  });
  await res.arrayBuffer();
  return res.status;
}

describe.runIf(process.platform === 'linux')('open files', () => {
  it(`${WORKSPACES} workspaces under ulimit -n ${LIMIT}: every create succeeds, the default workspace keeps working, descriptors stay bounded`, async () => {
    const data = folderIn(root);
    const child = spawn('bash', ['-c', `ulimit -n ${LIMIT}; exec "${process.execPath}" bin/deposit-sandbox.js --port 0 --data "${data}"`], { cwd: ROOT, stdio: 'pipe' });
    stops.push(() => child.kill('SIGKILL'));
    let out = '';
    let err = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        out += chunk;
        const found = READY.exec(out);
        if (found?.[1]) resolve(found[1]);
      });
      child.once('exit', (code) => reject(new Error(`exited (${code}) before its ready line:\n${out}\n${err}`)));
    });

    const statuses: number[] = [];
    // Eight at a time: a handful of connections, like a few test workers.
    for (let i = 0; i < WORKSPACES; i += 8) {
      statuses.push(...(await Promise.all(Array.from({ length: Math.min(8, WORKSPACES - i) }, (_, j) => create(url, `/w/worker-${i + j}`)))));
    }
    expect(statuses.filter((status) => status !== 201)).toEqual([]);
    expect(await create(url, '')).toBe(201);
    // The first workspace again, after all the others.
    expect(await create(url, '/w/worker-0')).toBe(201);
    const descriptors = readdirSync(`/proc/${child.pid}/fd`).length;
    expect(descriptors).toBeLessThan(WORKSPACES);
    expect(err).not.toMatch(/EMFILE/);

    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    // A clean stop under the same limit folds every workspace into its db.json: the workspaces'
    // journal is gone, and every workspace has its folder.
    const left = readdirSync(`${data}/workspaces`);
    expect(left.filter((name) => name === '@journal' || name.startsWith('journal.'))).toEqual([]);
    expect(left).toHaveLength(WORKSPACES);
  });
});
