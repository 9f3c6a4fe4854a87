/**
 * Crash-order fuzzing over real processes of the CLI (the build in dist/: run `npm run build`
 * before running this file alone): random sequences of creates in several workspaces (hostile
 * names among them), transitions, workspace deletes, clean stops and kill -9 (idle or with a burst
 * of creates in flight), each stop followed by a restart; after every restart and at the end,
 * everything acknowledged is in its workspace and no other, and nothing refused was stored
 * (test/crash-order.ts holds the model and the commands).
 *
 * 25 sequences of up to 30 steps by default; `CRASH_FUZZ_RUNS=<n>` runs more. A failure prints
 * fast-check's seed and path and the shrunk sequence (with its replayPath); `CRASH_FUZZ_SEED=<seed>
 * CRASH_FUZZ_PATH=<path> CRASH_FUZZ_REPLAY=<replayPath>` runs that sequence again. Loopback only; every process and data folder is gone after each sequence.
 */
import { afterAll, describe, it } from 'vitest';
import { cleanUp, fuzzCrashOrder } from './crash-order.js';
import { killAll, startProcess } from './sandbox-process.js';

const RUNS = Number(process.env['CRASH_FUZZ_RUNS'] ?? 25);

afterAll(() => {
  killAll();
  cleanUp();
});

describe('crash-order fuzzing: nothing acknowledged is lost in any order of stops, crashes and workspace names', () => {
  it(
    `${RUNS} random sequences of creates, transitions, deletes, clean stops and kill -9 with restarts: every acknowledged trade stays in its workspace alone`,
    async () => {
      await fuzzCrashOrder({
        launch: (data) => startProcess(['--port', '0', '--data', data]),
        runs: RUNS,
        maxCommands: 30,
        burst: 12,
        shrinkMs: 60_000,
      });
    },
    // The runs (about 2 s each on a 2-core machine), then at most a minute of shrinking after a failure.
    90_000 + RUNS * 4_000,
  );
});
