// A sandbox process for a suite that talks to one over HTTP (the workspaces examples), and
// running a command without blocking, so the sandbox's output keeps being read meanwhile.
import { spawn } from 'node:child_process';
import { closeSync, openSync, readdirSync } from 'node:fs';
import { setPriority } from 'node:os';
import { join } from 'node:path';
import { perSecond, statCpu, statFields, statTicks } from './proc-stat.js';
import { ROOT, SUITE_BOUND_MS } from './suites.js';

const BIN = join(ROOT, 'bin', 'deposit-sandbox.js');

/**
 * Starts `deposit-sandbox <flags> --port 0` and resolves with { url, stop } once it printed its
 * ready line ("deposit-sandbox listening on <url>"); rejects with its output when it exits first
 * or is not ready within `timeoutMs`. Its later output is passed on to this process's stderr.
 */
export function startSandboxProcess(flags, { timeoutMs = 30_000 } = {}) {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('DEPOSIT_SANDBOX_') && name !== 'PORT'));
  const child = spawn(process.execPath, [BIN, ...flags, '--port', '0'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise((resolve) => child.once('close', resolve));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  };
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`deposit-sandbox ${flags.join(' ')} printed no ready line within ${timeoutMs / 1000} s:\n${output}`));
    }, timeoutMs);
    child.stderr.setEncoding('utf8').on('data', (chunk) => {
      output += chunk;
      process.stderr.write(chunk);
    });
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      output += chunk;
      const ready = /deposit-sandbox listening on (\S+)/.exec(output);
      if (ready) {
        clearTimeout(timer);
        resolve({ url: ready[1], stop });
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`deposit-sandbox ${flags.join(' ')} exited (${code}) before its ready line:\n${output}`));
    });
  });
}

/** /proc/self/stat's cutime + cstime, in clock ticks. */
const childrenTicks = () => statTicks('/proc/self/stat')?.[1];

/** CPU seconds of this process's children that have ended and been waited for (statCpu()); undefined where there is no /proc. */
export function endedChildrenCpu() {
  return statCpu()?.children;
}

/**
 * CPU seconds used so far by the processes of session `sid` (a process that leads its own
 * session, as Chromium's browser does) other than the leader itself: each one's own CPU plus what
 * its ended children used. A program whose helpers outlive it (Chromium's zygotes are reparented
 * to init when the browser process is killed, with the renderers they waited for) leaves that CPU
 * in no process anyone waits for; read it before killing the leader. 0 without /proc.
 */
export function sessionCpu(sid) {
  let sum = 0;
  let names = [];
  try {
    names = readdirSync('/proc').filter((name) => /^\d+$/.test(name) && Number(name) !== sid);
  } catch {
    return 0;
  }
  for (const name of names) {
    try {
      const fields = statFields(`/proc/${name}/stat`);
      if (Number(fields[3]) !== sid) continue;
      const ticks = Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
      if (Number.isFinite(ticks)) sum += ticks;
    } catch {
      // It ended meanwhile (its parent waited for it, so its CPU went there).
    }
  }
  return sum / perSecond();
}

/** What childrenTicks() said when a command of runAsync last ended. */
let ticksSeen = childrenTicks();

/**
 * As run() in suites.js, without blocking this process: resolves with { status, why, cpu }, `cpu`
 * being the CPU seconds the command and the processes it waited for used (what the children's
 * CPU of this process grew by when it ended; two commands ending in the same instant may be
 * counted as one; undefined without /proc). With
 * `logFile`, the command's stdout and stderr go to that file instead of this process's; with `nice`,
 * it runs at that lower CPU priority (os.setPriority).
 */
export function runAsync(command, args, { cwd = ROOT, env = process.env, timeoutMs = SUITE_BOUND_MS, logFile, nice } = {}) {
  return new Promise((resolve) => {
    const log = logFile ? openSync(logFile, 'w') : undefined;
    const output = log ?? 'inherit';
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', output, output] });
    // The processes it starts inherit the priority; a refusal (an unprivileged user raising it) is harmless.
    if (nice !== undefined && child.pid !== undefined) {
      try {
        setPriority(child.pid, nice);
      } catch {}
    }
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    let finished = false;
    const done = (outcome) => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      if (log !== undefined) closeSync(log);
      resolve(outcome);
    };
    child.once('error', (error) => done({ status: 1, why: `${command} could not be started: ${error.message}` }));
    let cpu;
    child.once('exit', () => {
      // Read as soon as it was waited for, before other commands end.
      const now = childrenTicks();
      if (now !== undefined && ticksSeen !== undefined) cpu = (now - ticksSeen) / perSecond();
      ticksSeen = now;
    });
    child.once('close', (code, signal) => {
      if (timedOut) done({ status: 1, why: `${command} ${args.join(' ')} did not finish within ${timeoutMs / 60_000} min and was stopped`, cpu });
      else if (code !== 0) done({ status: code ?? 1, why: `${command} ${args.join(' ')} exited ${code ?? signal}`, cpu });
      else done({ status: 0, cpu });
    });
  });
}
