/**
 * The toolchain probes of `npm test` (scripts/lib/suites.js): a suite is reported missing only
 * when its toolchain is, never when the probe was merely slow on a busy machine. And the CPU a
 * stage used, which the stage table shows (scripts/lib/sandbox-process.js).
 */
import { spawn } from 'node:child_process';
import { expect, it } from 'vitest';
// @ts-expect-error: a plain JavaScript module of the scripts, without types
import { needs, probe } from '../scripts/lib/suites.js';
// @ts-expect-error: a plain JavaScript module of the scripts, without types
import { endedChildrenCpu, runAsync, sessionCpu } from '../scripts/lib/sandbox-process.js';

const node = process.execPath;

it('a probe that exits 0 works; one that exits otherwise or is not installed names the toolchain missing, with why', () => {
  expect(probe(node, ['-e', 'process.exit(0)'])).toBeUndefined();
  expect(probe(node, ['-e', 'process.exit(3)'])).toEqual({ missing: true, why: expect.stringMatching(/exited with 3$/) });
  expect(probe('deposit-sandbox-no-such-toolchain', ['--version'])).toEqual({ missing: true, why: 'deposit-sandbox-no-such-toolchain is not installed' });
  expect(needs('go', 'apt-get install -y golang-go', 'deposit-sandbox-no-such-toolchain', ['version'])).toBe(
    'go is missing (apt-get install -y golang-go): deposit-sandbox-no-such-toolchain is not installed',
  );
  expect(needs('node', 'nothing', node, ['-e', ''])).toBeUndefined();
});

it('a probe that runs out of time does not call the toolchain missing', () => {
  const slow = probe(node, ['-e', 'setTimeout(() => {}, 10000)'], 300);
  expect(slow).toEqual({ missing: false, why: expect.stringMatching(/did not finish within 0\.3 s \(a busy machine\?\)$/) });
  const said = needs('python3 with pytest', 'apt-get install -y python3-pytest', node, ['-e', 'setTimeout(() => {}, 10000)'], 300);
  expect(said).toMatch(/^could not tell whether python3 with pytest is installed: /);
  expect(said).not.toMatch(/missing/);
});

it('a stage run by npm test reports the CPU its process used (the stage table adds them up)', async () => {
  // Busy until the process itself has used 0.3 s of CPU, however loaded the machine is.
  const busy = 'while ((process.cpuUsage().user + process.cpuUsage().system) < 300000) {}';
  const outcome = await runAsync(node, ['-e', busy]);
  expect(outcome.status).toBe(0);
  expect(outcome.cpu).toBeGreaterThanOrEqual(0.29);
  expect(endedChildrenCpu()).toBeGreaterThanOrEqual(outcome.cpu);
});

it("counts the CPU of a session's processes that outlive their leader: what a kept child and its ended children used", async () => {
  // A session leader (as Chromium's browser is) with a child that stays (a zygote), which started
  // a grandchild that used 0.3 s of CPU and ended (a renderer, waited for by the zygote).
  const busy = 'while ((process.cpuUsage().user + process.cpuUsage().system) < 300000) {}';
  const middle = `require('node:child_process').spawnSync(process.execPath, ['-e', ${JSON.stringify(busy)}]); console.log('burned'); setTimeout(() => {}, 60000);`;
  const leader = spawn(node, ['-e', `require('node:child_process').spawn(process.execPath, ['-e', ${JSON.stringify(middle)}], { stdio: 'inherit' }); setTimeout(() => {}, 60000);`], {
    detached: true,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    await new Promise<void>((resolve, reject) => {
      leader.stdout.setEncoding('utf8').on('data', (text: string) => text.includes('burned') && resolve());
      leader.once('exit', (code) => reject(new Error(`the leader ended (${code})`)));
    });
    expect(sessionCpu(leader.pid)).toBeGreaterThanOrEqual(0.29);
    expect(sessionCpu(process.pid)).toBe(0);
  } finally {
    process.kill(-leader.pid!, 'SIGKILL');
  }
});
