/**
 * The balance-probe examples of docs/callback-fuzzer.md (examples/probes/) in Node, Python,
 * PHP and Go, each run as its own process on 127.0.0.1 and read with the fuzzer's own probe
 * reader; and the page shows each file exactly. A missing toolchain skips its language with a
 * message, except with CI=true, where it fails.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { freePort } from './callbacks-receiver.js';
import { killGroup } from './example-receivers.js';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect } from 'vitest';
import { it, test } from './temp-folder.js';
import { readProbe } from '../src/balance-probe/read-probe.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const file = (name: string) => join(ROOT, 'examples', 'probes', name);
const CI = process.env['CI'] === 'true';
/** The file's temporary folder (the fixture removes it after the file's tests). */
let goCache: string;
test.beforeAll(({ fileFolder }) => {
  goCache = fileFolder;
});
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) killGroup(child);
});

const has = (command: string) => spawnSync(command, ['--version'], { stdio: 'ignore' }).status === 0 || spawnSync(command, ['version'], { stdio: 'ignore' }).status === 0;

/** Starts a probe and resolves with its URL once it prints "probe on <url>" (or, for PHP, once its server has started). */
function start(command: string, args: string[], env: Record<string, string>, url?: string): Promise<string> {
  // A process group of its own: afterEach kills the program `go run` built too.
  const child = spawn(command, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`${command} did not start within 90 s: ${out}`)), 90_000);
    const watch = (chunk: Buffer) => {
      out += chunk.toString();
      const match = /probe on (\S+)/.exec(out);
      if (match || (url && /started/i.test(out))) {
        clearTimeout(timer);
        resolve(match ? match[1]! : url!);
      }
    };
    child.stdout!.on('data', watch);
    child.stderr!.on('data', watch);
    child.once('exit', (code) => reject(new Error(`${command} exited with ${code}: ${out}`)));
  });
}

const LANGUAGES: Array<[string, string, string, () => Promise<string>]> = [
  ['Node', process.execPath, 'probe.mjs', () => start(process.execPath, [file('probe.mjs')], { PORT: '0' })],
  ['Python', 'python3', 'probe.py', () => start('python3', [file('probe.py')], { PORT: '0' })],
  [
    'PHP',
    'php',
    'probe.php',
    async () => {
      const port = await freePort();
      return start('php', ['-S', `127.0.0.1:${port}`, file('probe.php')], {}, `http://127.0.0.1:${port}/probe`);
    },
  ],
  // GOTMPDIR: `go run` builds the program in a folder it removes only when it ends by itself; killed, it leaves it here.
  ['Go', 'go', 'probe.go', () => start('go', ['run', file('probe.go')], { PORT: '0', GOCACHE: goCache, GOTMPDIR: goCache, GOFLAGS: '-mod=mod' })],
];

describe('balance probe examples', () => {
  const page = readFileSync(join(ROOT, 'docs', 'callback-fuzzer.md'), 'utf8');

  it.each(LANGUAGES)('%s: the page shows the example file exactly', (_language, _command, name) => {
    expect(page).toContain(readFileSync(file(name), 'utf8'));
  });

  it.for(LANGUAGES)('%s: answers the probe contract for a known and an unknown order', { timeout: 120_000 }, async ([language, command, _name, run], { skip }) => {
    if (!has(command)) {
      if (CI) throw new Error(`${command} is missing, and CI=true: install it (see .ci/run)`);
      skip(`the ${language} probe example needs ${command}, which is not installed`);
    }
    const url = await run();
    expect(await readProbe(url, 'order-1001')).toEqual({ state: 'confirmed', credited_cents: 31250 });
    expect(await readProbe(url, 'never-seen')).toEqual({ state: null, credited_cents: 0 });
  });
});
