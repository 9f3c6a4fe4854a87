/**
 * One voice: what a sandbox has to say goes through the logger it was given at creation, marked
 * with the workspace where there is one; the tests read the logger, not process.stdout/stderr.
 * Outside the CLI no module writes to the process's streams or the console itself.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect } from 'vitest';
import { it } from '../temp-folder.js';
import { createServer } from '../../src/server/server.js';
import { capturingLogger, checkedApp } from '../support.js';

const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

const SCENARIO = (name: string) => `scenarios:\n  - name: ${name}\n    description: Ends vx- orders.\n    match:\n      order: "^vx-"\n    timeline:\n      - after: 5s\n        state: confirmed\n`;

describe('one voice', () => {
  it("a workspace's warning (its uploaded scenarios set aside) goes to the logger, marked with the workspace", async ({ folder: data }) => {
    const firstServer = await createServer({ data }, { services: { logger: capturingLogger() } });
    const put = await checkedApp(firstServer).request('/w/qa/_sandbox/scenarios', { method: 'PUT', body: SCENARIO('late-name') });
    expect(put.status).toBe(200);
    await firstServer.close();
    // The scenario files now hold that name too: the upload no longer fits and is set aside.
    const folder = join(data, 'more-scenarios');
    mkdirSync(folder);
    writeFileSync(join(folder, 'late.yaml'), SCENARIO('late-name'));
    const logger = capturingLogger();
    const secondServer = await createServer({ data, scenarios: folder }, { services: { logger } });
    cleanup.push(() => secondServer.close());
    await secondServer.workspaces.loaded();
    expect(logger.warnings).toEqual([expect.stringMatching(/^workspace "qa": the scenarios uploaded to this workspace were set aside:/)]);
  });

  it('a callback listener that throws (a bug) is told to the logger, not to stderr', async () => {
    const logger = capturingLogger();
    const sandboxServer = await createServer({ inMemory: true }, { services: { logger } });
    const sandbox = sandboxServer.root;
    cleanup.push(() => sandboxServer.close());
    sandbox.callbacks.on('queued', () => {
      throw new Error('listener bug');
    });
    const app = checkedApp(sandboxServer);
    const created = await app.request('/api/v1/trades/deposit/create', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Auth': 'sandbox-token-demo' },
      body: JSON.stringify({ merchant: '6f1c2a9e-3b7d-4c52-9a1e-2d4b8f0c7e51', order: 'voice-1', amount_cents: 100, amount_currency: 'RUB', type: 'nspk', callback_url: 'http://127.0.0.1:9/cb' }),
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    expect((await app.request(`/_sandbox/trades/${id}/transition`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"state":"confirmed"}' })).status).toBe(200);
    expect(logger.warnings.some((line) => line.startsWith('a "queued" callback listener threw: Error: listener bug'))).toBe(true);
  });

  it("the data folder's own lines (a lock taken over, a damaged journal) go to the logger, not to stderr", async ({ folder: data }) => {
    // A holder file of this very process from an earlier life: the holder is certainly gone.
    writeFileSync(join(data, 'lock.json'), JSON.stringify({ pid: process.pid, hostname: hostname(), since: '' }));
    writeFileSync(join(data, 'journal.0.ndjson'), 'this is not a journal record\n');
    const logger = capturingLogger();
    const sandboxServer = await createServer({ data }, { services: { logger } });
    cleanup.push(() => sandboxServer.close());
    expect(logger.warnings).toEqual([
      `took over the lock on the data folder ${data} left by an earlier sandbox that had this process's ID (${process.pid}), which is no longer running.`,
      expect.stringMatching(/^journal\.0\.ndjson: skipped 1 damaged record/),
    ]);
    // The prefix is the CLI's logger's to write (src/cli/console-logger.ts), once.
    expect(logger.warnings.some((line) => line.includes('deposit-sandbox:'))).toBe(false);
  });
});

/**
 * Where a module outside the CLI may still name the process's streams or the console, and why.
 * Everything else writes through the logger it was given (src/log/logger.ts).
 */
const ALLOWED: ReadonlyArray<{ path: RegExp; why: string }> = [
  { path: /^cli\//, why: "the CLI is the process's voice: its commands print their answers, and its logger (console-logger.ts) writes the sandbox's lines with the prefix" },
  { path: /\.test\.tsx?$/, why: 'unit tests beside the code may spy on the streams to prove nothing is written' },
];

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));
/** A write to a stream of the process or to the console, in code (comments are dropped first). */
const DIRECT = /\bprocess\s*\.\s*(stdout|stderr)\b|\bconsole\s*\.\s*\w+|from\s+['"](node:)?process['"]|\b(stdout|stderr)\s*\.\s*write\b/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx|js|mjs)$/.test(entry.name) ? [path] : [];
  });
}

/** The code of a file without its comments (strings stay: a template may build a line to write). */
function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}

describe('no module outside the CLI writes to stdout, stderr or the console', () => {
  it('src/ names process.stdout, process.stderr or console only where ALLOWED says why', () => {
    const offenders: string[] = [];
    for (const file of sourceFiles(SRC)) {
      const path = relative(SRC, file).split('\\').join('/');
      if (ALLOWED.some((allowed) => allowed.path.test(path))) continue;
      withoutComments(readFileSync(file, 'utf8'))
        .split('\n')
        .forEach((line, index) => {
          if (DIRECT.test(line)) offenders.push(`src/${path}:${index + 1}: ${line.trim()}`);
        });
    }
    expect(offenders, 'write through the logger the sandbox was given (src/log/logger.ts), or say in ALLOWED why not').toEqual([]);
  });

  it('the scan sees a direct write when there is one', () => {
    for (const line of ['process.stderr.write(`deposit-sandbox: x\\n`);', 'console.warn(line);', "import { stdout } from 'node:process';", 'stdout.write(text);']) {
      expect(DIRECT.test(withoutComments(line)), line).toBe(true);
    }
    expect(DIRECT.test(withoutComments('// process.stderr.write(x) in a comment'))).toBe(false);
  });
});
