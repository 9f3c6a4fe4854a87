import { formatDuration } from '../clock/duration.js';
import type { Sandbox } from '../sandbox.js';
import type { RunningServer } from '../server.js';

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

/**
 * SIGINT/SIGTERM/SIGHUP for `serve` (SIGHUP: the terminal that started it was closed). The first signal stops accepting connections, says what the
 * sandbox still waits for (requests in flight, the longest scenario delay, open connections)
 * and for how long at most (--shutdown-timeout), then saves the store and exits 0. A second
 * signal closes every connection at once and exits as soon as the store is saved.
 */
export function handleShutdownSignals(running: RunningServer, sandbox: Sandbox, io: ShutdownIo = processIo): void {
  let signals = 0;
  const onSignal = (signal: NodeJS.Signals) => {
    signals++;
    if (signals === 1) {
      first(signal);
      return;
    }
    if (signals === 2) {
      const { requests } = running.connections.open;
      io.say(`deposit-sandbox: ${signal} received again: closing every connection now${requests > 0 ? ` (${count(requests, 'request')} left unanswered)` : ''} and saving the store`);
      running.connections.closeAll();
    }
  };

  const first = (signal: NodeJS.Signals) => {
    const { requests, halfSent } = running.connections.open;
    const timeout = sandbox.options.shutdownTimeout;
    if (requests === 0 && halfSent === 0) {
      io.say(`deposit-sandbox: ${signal} received: saving the store and exiting`);
    } else {
      const delays = sandbox.scenarios.delaysUnderWay();
      const delay =
        delays.count > 0 ? ` (${delays.count === 1 ? 'a scenario create delay' : `${delays.count} scenario create delays, the longest`} ends in ${formatDuration(delays.longestLeftMs)})` : '';
      const waits = [requests > 0 ? `${count(requests, 'request')} in flight${delay}` : '', halfSent > 0 ? `${count(halfSent, 'connection')} with half-sent headers` : ''];
      io.say(
        [
          `deposit-sandbox: ${signal} received: no new connections; waiting for ${waits.filter(Boolean).join(' and ')}`,
          `for at most ${formatDuration(timeout)} (--shutdown-timeout), then saving the store and exiting.`,
          `Press Ctrl-C again (or send another SIGINT/SIGTERM) to exit at once; the store is still saved.`,
        ].join(' '),
      );
    }
    running
      .close({
        onTimeout: (left) =>
          io.say(
            `deposit-sandbox: the shutdown timeout (${formatDuration(timeout)}) ran out: closing ${count(left.connections, 'connection')}${left.requests > 0 ? ` (${count(left.requests, 'request')} left unanswered)` : ''} and saving the store`,
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
  process.on('SIGHUP', onSignal);
}
