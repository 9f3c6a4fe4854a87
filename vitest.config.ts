import { defineConfig } from 'vitest/config';

// The container test builds an image (minutes, podman): `npm run test:container` runs it.
const exclude = ['**/node_modules/**', 'test/container/**'];

/**
 * Which project runs a file follows from the folder it is in, so a new file needs no list:
 *   - unit: the tests of src/ and test/in-process/: logic, and the app driven in this process
 *     (app.request(), startSandbox()); no process started, no process-wide state changed
 *     (environment, signals, prototypes, timers left faked), no browser;
 *   - browser: test/browser/, on one shared Chromium;
 *   - integration: every other test file of test/ and examples/: processes, servers, npm.
 * docs/testing.md says where a new file goes.
 */
const unit = ['src/**/*.test.ts', 'src/**/*.test.tsx', 'test/in-process/**/*.test.ts'];
const browser = ['test/browser/**/*.test.ts'];

export default defineConfig({
  test: {
    // vitest's default is one worker per core less one: a single worker on a 2-core machine, idle
    // while a test waits on a child process, a browser or a socket. Most files here do.
    maxWorkers: 3,
    // With TEST_CPU_FILE set (npm test sets it), each file writes the CPU it used there.
    setupFiles: ['test/cpu-per-file.ts'],
    projects: [
      {
        extends: true,
        test: {
          // Logic and in-process app tests: threads that keep the modules they imported from one
          // file to the next (no re-import of hono, zod and the app per file).
          // A file that fakes timers or spies restores them itself (vitest's restoreMocks does too).
          name: 'unit',
          include: unit,
          exclude,
          pool: 'threads',
          isolate: false,
          restoreMocks: true,
          // Bounds for a hang, not for speed: a test that is slow on a loaded machine still
          // passes, and `npm test` prints how long each stage took.
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          // Tests that start processes and servers, in child processes of vitest's (forks), so that
          // what a file does to its process stays out of vitest's own.
          // A fork runs one file after another without a fresh start and re-import each (about 1.5 s
          // of CPU a file): no file here changes the environment, the working folder or signal
          // handlers, and one that fakes timers or spies restores them itself (restoreMocks too).
          // examples/ holds the README's merchant-flow test; it imports the built package ('deposit-sandbox' -> dist/).
          name: 'integration',
          include: ['test/**/*.test.ts', 'examples/**/*.test.ts'],
          // The examples' `import ... from 'deposit-sandbox'` is this checkout's build (dist/), not a
          // copy under node_modules/: loaded as Node loads it, as vitest does any installed package,
          // instead of transformed as if it were the project's source (as in
          // scripts/lib/workspaces-vitest.config.mjs).
          server: { deps: { external: [/\/dist\//] } },
          exclude: [...exclude, ...unit, ...browser],
          pool: 'forks',
          isolate: false,
          restoreMocks: true,
          // A test here starts processes one after another; on a loaded 2-core machine a Node
          // start alone has taken seconds. These bound a hang, not speed.
          testTimeout: 180_000,
          hookTimeout: 180_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'browser',
          include: browser,
          exclude,
          pool: 'forks',
          // A worker imports playwright-core and the app once, not once per file (seconds each on a
          // loaded 2-core machine). Each file starts its own sandbox and closes its own browser
          // connection, contexts and servers in afterAll, and changes no process-wide state.
          isolate: false,
          globalSetup: ['test/browser/chromium-server.ts'],
          testTimeout: 180_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
