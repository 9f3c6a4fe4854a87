/**
 * `deposit-sandbox check-callback --probe` as a real process (the build in dist/: run
 * `npm run build` before this file alone) against the reference receivers of
 * examples/receivers, each started as its own process (`node <file>`, PORT=0, 127.0.0.1).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect } from 'vitest';
import { it, test } from './temp-folder.js';
import { junitErrors } from './junit-schema.js';
import { cleanEnv, runCli as cli } from './sandbox-process.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const env = cleanEnv();

const children: ChildProcess[] = [];
const servers: Server[] = [];
/** The file's temporary folder (the fixture removes it after the file's tests). */
let dir: string;
test.beforeAll(({ fileFolder }) => {
  dir = fileFolder;
});
afterEach(async () => {
  for (const child of children.splice(0)) child.kill();
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

/** Starts examples/receivers/<name>.mjs as a process and answers its callback and probe URLs. */
function receiver(name: string): Promise<{ url: string; probe: string }> {
  const child = spawn(process.execPath, [join(ROOT, 'examples', 'receivers', `${name}.mjs`)], { env: { ...env, PORT: '0' }, stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /receiver on (\S+), probe on (\S+)\n/.exec(out);
      if (match) resolve({ url: match[1]!, probe: match[2]! });
    });
    child.once('exit', (code) => reject(new Error(`receiver ${name} exited with ${code}: ${out}`)));
  });
}

describe('deposit-sandbox check-callback --probe', () => {
  it('exits 1 for a receiver without de-duplication, printing the shrunk schedule, its cause and how to replay it', async () => {
    const { url, probe } = await receiver('no-dedup');
    const junit = join(dir, 'no-dedup.xml');
    const result = await cli(['check-callback', url, '--probe', probe, '--seed', '42', '--runs', '100', '--junit', junit]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('Fuzzing the callback receiver as merchant 6f1c2a9e-3b7d-4c52-9a1e-2d4b8f0c7e51 (Demo Shop): seed 42, 100 schedules, balance probe on\n\n');
    expect(result.stdout).toMatch(/\nFLAGGED: credited \d+ twice: the receiver does not de-duplicate by X-Sandbox-Event-Id or by trade id and state/);
    expect(result.stdout).toMatch(/\n {3}1\. T1 confirmed event T1#1 attempt 1 +delivered +-> 200\n {3}2\. T1 confirmed event T1#1 attempt 2 +delivered again \(same event\) +-> 200\n/);
    const replay = /\nReplay it: --seed 42 --path (\S+)\nor send exactly this list: --replay '(.+)'\n$/.exec(result.stdout);
    expect(replay).not.toBeNull();
    const xml = readFileSync(junit, 'utf8');
    expect(await junitErrors(xml)).toEqual([]);
    expect(xml).toContain('<testcase classname="check-callback.invariants" name="a confirmed trade is credited exactly once">\n      <failure message="credited');

    // The same seed prints the same transcript; the printed path and list replay the failure.
    const again = await cli(['check-callback', url, '--probe', probe, '--seed', '42', '--runs', '100']);
    expect(again.stdout).toBe(result.stdout);
    const byPath = await cli(['check-callback', url, '--probe', probe, '--seed', '42', '--path', replay![1]!]);
    expect(byPath.code).toBe(1);
    expect(byPath.stdout).toMatch(/\nFLAGGED: credited \d+ twice/);
    const byList = await cli(['check-callback', url, '--probe', probe, '--seed', '42', '--replay', replay![2]!]);
    expect(byList.code).toBe(1);
    expect(byList.stdout).toContain('seed 42, 1 schedules, balance probe on');
    expect(byList.stdout).toMatch(/\nFLAGGED: credited \d+ twice/);
  });

  it('exits 1 for a receiver that checks, waits for its database, then writes: the race cause names the fix', async () => {
    const { url, probe } = await receiver('check-then-insert');
    const result = await cli(['check-callback', url, '--probe', probe, '--seed', '42', '--runs', '100']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      '\nFLAGGED: credited 100 twice when two deliveries of one event overlapped: the receiver checks and then writes without a unique key or a lock; make the write itself refuse the second (a unique index on the event id or on trade id + state, INSERT … ON CONFLICT DO NOTHING, or SELECT … FOR UPDATE) (T1).\n',
    );
    expect(result.stdout).toMatch(/abandoned at the callback timeout|\[at once with /);
  });

  it('exits 0 for the correct receiver, and the JUnit file lists every invariant as passed', async () => {
    const { url, probe } = await receiver('correct');
    const junit = join(dir, 'correct.xml');
    // 50 schedules: the point here is the exit code and the JUnit file of a clean run. That the
    // correct receiver raises no false alarm over many schedules is callback-fuzzer.test.ts's
    // (1,000, in-process); over two processes a schedule is a few sequential round trips, and
    // 200 of them have taken over three minutes on a loaded machine.
    const result = await cli(['check-callback', url, '--probe', probe, '--seed', '3', '--runs', '50', '--junit', junit]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout.endsWith('\n\nNo violation in 50 schedules.\n')).toBe(true);
    const xml = readFileSync(junit, 'utf8');
    expect(await junitErrors(xml)).toEqual([]);
    expect(xml).toContain('<testsuite name="check-callback" tests="10" failures="0" errors="0" skipped="0">');
  });

  it('without --probe, --runs judges answers only and skips the probe invariants; the five-case check writes JUnit too', async () => {
    const { url } = await receiver('no-signature-check');
    const fuzzed = await cli(['check-callback', url, '--seed', '5', '--runs', '50']);
    expect(fuzzed.code).toBe(1);
    expect(fuzzed.stdout).toContain('no balance probe (answers only)');
    expect(fuzzed.stdout).toMatch(/\nFLAGGED: accepted a callback with (a wrong X-Signature|no X-Signature|another merchant's signature) .* the receiver does not verify X-Signature/);
    const junit = join(dir, 'five.xml');
    const five = await cli(['check-callback', url, '--junit', junit]);
    expect(five.code).toBe(1);
    expect(five.stdout).toContain('\n2 of 5 checks flagged: fix them and run the check again.\n\nCredits were NOT checked:');
    expect(fuzzed.stdout).toContain(`\nCredits were NOT checked: without --probe this check reads your receiver's answers only`);
    expect(fuzzed.stdout).toContain(`\n  deposit-sandbox check-callback ${url} --probe ${new URL('/probe', url).href}\n`);
    const xml = readFileSync(junit, 'utf8');
    expect(await junitErrors(xml)).toEqual([]);
    expect(xml).toContain('<testsuite name="check-callback" tests="5" failures="2" errors="0" skipped="0">');
  });

  it.each([
    ['answers HTML', 200, '<html>ok</html>', 'answered 200 with something that is not JSON ("<html>ok</html>")'],
    ['misses credited_cents', 200, '{"state":"confirmed"}', 'credited_cents is not right'],
    ['answers 500', 500, 'down', 'answered 500 ("down")'],
  ])('a probe that %s stops the run with a clear error (exit 1)', async (_name, status, body, message) => {
    const { url } = await receiver('correct');
    const bad = createServer((_req, res) => void res.writeHead(status, { 'Content-Type': 'text/plain' }).end(body));
    servers.push(bad);
    await new Promise<void>((resolve) => bad.listen(0, '127.0.0.1', resolve));
    const probe = `http://127.0.0.1:${(bad.address() as AddressInfo).port}/probe`;
    const result = await cli(['check-callback', url, '--probe', probe, '--seed', '1', '--runs', '5']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`deposit-sandbox: The balance probe GET ${probe}?order=fuzz-`);
    expect(result.stderr).toContain(message);
    expect(result.stderr).toContain('It must answer 200 with {"state": "confirmed", "credited_cents": 31250}');
  });

  it.each([
    [['--probe', 'ftp://x/probe'], '--probe "ftp://x/probe" is not an absolute http(s) URL.'],
    [['--runs', '0'], '--runs must be a whole number from 1 to 1000000; got "0".'],
    [['--seed', 'abc'], '--seed must be a whole number'],
    [['--replay', '{"trades":[]}'], '--replay is not a schedule the fuzzer printed:'],
  ])('%j fails before sending anything, saying why', async (args, message) => {
    const result = await cli(['check-callback', 'http://127.0.0.1:1/cb', ...args]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(message);
  });
});
