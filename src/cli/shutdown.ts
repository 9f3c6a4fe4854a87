import { readFileSync } from 'node:fs';
import { formatDuration } from '../clock/duration.js';
import type { Sandbox } from '../sandbox.js';
import type { RunningServer } from '../server/listen.js';

export interface ShutdownIo {
  /** One message line (without the newline); stdout in the CLI. */
  say(line: string): void;
  /** One error line; stderr in the CLI. */
  warn(line: string): void;
  exit(code: number): void;
}

const processIo: ShutdownIo = {
  say: (line) => void process.stdout.write(`${line}\n`),
  warn: (line) => void process.stderr.write(`${line}\n`),
  exit: (code) => process.exit(code),
};

const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** Whether this process was started with SIGHUP ignored (`nohup deposit-sandbox &`): Linux's /proc says so. */
function sighupIgnored(): boolean {
  try {
    const mask = /^SigIgn:\s*([0-9a-f]+)$/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
    return mask !== undefined && (BigInt(`0x${mask}`) & 1n) === 1n;
  } catch {
    return false;
  }
}

/**
 * SIGINT/SIGTERM/SIGHUP for `serve` (SIGHUP: the terminal that started it was closed). The first signal stops accepting connections, says what the
 * sandbox still waits for (requests in flight, the longest scenario delay, open connections)
 * and for how long at most (--shutdown-timeout), then saves the store and exits 0. A second
 * signal closes every connection at once and exits as soon as the store is saved.
 *
 * SIGHUP (the terminal was closed) is handled like SIGTERM, unless the process was started with
 * it ignored (`nohup`), which is respected. Started by npm (`npx deposit-sandbox`, `npm start`),
 * the sandbox runs under a shell that npm starts and signals: SIGTERM to npx ends that shell but
 * not its child, so the sandbox also stops, as on SIGTERM, when its parent process goes away.
 */
export function handleShutdownSignals(running: RunningServer, sandbox: Sandbox, io: ShutdownIo = processIo): void {
  const saving = sandbox.options.inMemory ? '' : ' and saving the store';
  const stillSaved = sandbox.options.inMemory ? '' : '; the store is still saved';
  let signals = 0;
  const onSignal = (signal: NodeJS.Signals) => {
    signals++;
    if (signals === 1) {
      first(`${signal} received`);
      return;
    }
    if (signals === 2) {
      const { requests } = running.connections.open;
      io.say(`deposit-sandbox: ${signal} received again: closing every connection now${requests > 0 ? ` (${count(requests, 'request')} left unanswered)` : ''}${saving}`);
      running.connections.closeAll();
    }
  };

  const first = (why: string) => {
    const { requests, halfSent } = running.connections.open;
    const timeout = sandbox.options.shutdownTimeout;
    if (requests === 0 && halfSent === 0) {
      io.say(`deposit-sandbox: ${why}: ${sandbox.options.inMemory ? 'exiting (--in-memory: nothing to save)' : 'saving the store and exiting'}`);
    } else {
      const delays = sandbox.scenarios.delaysUnderWay();
      const delay =
        delays.count > 0 ? ` (${delays.count === 1 ? 'a scenario create delay' : `${delays.count} scenario create delays, the longest`} ends in ${formatDuration(delays.longestLeftMs)})` : '';
      const waits = [requests > 0 ? `${count(requests, 'request')} in flight${delay}` : '', halfSent > 0 ? `${count(halfSent, 'connection')} with half-sent headers` : ''];
      io.say(
        [
          `deposit-sandbox: ${why}: no new connections; waiting for ${waits.filter(Boolean).join(' and ')}`,
          `for at most ${formatDuration(timeout)} (--shutdown-timeout), then ${sandbox.options.inMemory ? 'exiting' : 'saving the store and exiting'}.`,
          `Press Ctrl-C again (or send another SIGINT/SIGTERM) to exit at once${stillSaved}.`,
        ].join(' '),
      );
    }
    running
      .close({
        onTimeout: (left) =>
          io.say(
            `deposit-sandbox: the shutdown timeout (${formatDuration(timeout)}) ran out: closing ${count(left.connections, 'connection')}${left.requests > 0 ? ` (${count(left.requests, 'request')} left unanswered)` : ''}${saving}`,
          ),
      })
      .then(
        () => io.exit(0),
        (error: unknown) => {
          io.warn(`deposit-sandbox: could not save the store on exit: ${(error as Error).message}`);
          io.exit(1);
        },
      );
  };

  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  if (!sighupIgnored()) process.on('SIGHUP', onSignal);
  // Ctrl-C also ends npm's shell: then the signal came first, and the parent's end is no second one.
  const parentGone = (parent: number) => {
    if (signals > 0) return;
    signals++;
    first(`the process that started the sandbox (${parent}, npm's shell) is gone`);
  };
  if (process.env['npm_lifecycle_event'] !== undefined) watchParent(parentGone);
}

/**
 * Calls `onGone` once when the parent process is gone (this process was handed to another
 * parent). Checked every 500 ms on a timer that does not keep the process alive.
 */
function watchParent(onGone: (parent: number) => void): void {
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    onGone(parent);
  }, 500);
  timer.unref();
}
