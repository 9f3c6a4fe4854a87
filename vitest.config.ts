import { defineConfig } from 'vitest/config';

// The container test builds an image (minutes, podman): `npm run test:container` runs it.
const exclude = ['**/node_modules/**', 'test/container/**'];

/**
 * Files of test/ that drive the app in this process (app.request(), startSandbox()) and start no
 * process, change no process-wide state (environment, signals, prototypes, timers) and need no
 * browser: they run with the unit tests. A new file goes to the isolated project unless added here.
 */
const inProcess = [
  'admin-flow',
  'admin-token',
  'admin',
  'callback-fuzzer',
  'callbacks-chaos',
  'callbacks-faults',
  'callbacks-manual-hang',
  'callbacks-sender',
  'callbacks',
  'check-callback-routes',
  'check-callback',
  'cli-bundle',
  'clock-switch',
  'container-docs',
  'docs-drift',
  'fuzz',
  'hostile-http',
  'hostile-paths',
  'hostile',
  'junit-xml',
  'one-voice',
  'openapi',
  'openapi-refusals',
  'public-surface',
  'races',
  'readme-first-questions',
  'report-coverage',
  'report-workspaces',
  'report',
  'scenario-opt-in',
  'scenarios-callbacks',
  'scenarios-docs',
  'scenarios-faults',
  'security-web',
  'test-times',
  'workspaces-parallel',
  'workspaces',
].map((name) => `test/${name}.test.ts`);

/** Files that drive Chromium: they share one, started once per run (test/browser/chromium-server.ts). */
const browser = ['test/browser/**/*.test.ts', 'test/check-callback-dashboard.test.ts'];

export default defineConfig({
  test: {
    // vitest's default is one worker per core less one: a single worker on a 2-core machine, idle
    // while a test waits on a child process, a browser or a socket. Most files here do.
    maxWorkers: 3,
    projects: [
      {
        extends: true,
        test: {
          // Logic and in-process app tests: threads that keep the modules they imported from one
          // file to the next (no re-import of hono, zod and the app per file).
          // A file that fakes timers or spies restores them itself (vitest's restoreMocks does too).
          name: 'unit',
          include: ['src/**/*.test.ts', 'src/**/*.test.tsx', ...inProcess],
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
          exclude: [...exclude, ...inProcess, ...browser],
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
