/**
 * The README and docs/ name only what exists (docs/writing-docs.md):
 * - every backticked repository path (`src/...`, `test/...`, `docs/...`, `scripts/...`, `examples/...`,
 *   `bin/...`, `fixtures/...`, `scenarios/...`, `bench/...`) is a file or folder of this checkout; under a
 *   heading that names a folder (`## PHP: \`examples/php\``) it may also be relative to that folder;
 * - every backticked URL path of the sandbox (`GET /_sandbox/trades/:id`, `/w/<name>/_sandbox/`,
 *   `/pay/*`) is a route of the app (with that method, when one is written), or the start of one;
 * - every `--flag` of a `deposit-sandbox ...` command line (in inline code or a fenced block) is a flag
 *   of that command; every `--flag` of inline code that starts with a command name
 *   (`serve --report <file>`) is one of that command; every `--flag` of inline code that starts with
 *   `--` is a flag of some command, or of another tool listed in OTHER_TOOLS_FLAGS with the reason.
 * - every route of the admin API is named (`POST /_sandbox/merchants`) somewhere in the docs;
 * - every `DEPOSIT_SANDBOX_*` variable the docs name is read by a flag or by the code, the
 *   examples or the scripts (or listed in READER_VARIABLES with the reason);
 * - what docs/admin-api.md says of request bodies is what the app does.
 * The flags come from the commander program (src/cli/program.ts), the routes from the Hono app
 * (src/app.ts), so a flag or route renamed in the code fails here until the docs follow. The
 * generated tables (flags, routes) are checked by test/docs.test.ts (`npm run docs`).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { listFlags } from '../../src/cli/list-flags.js';
import { createProgram } from '../../src/cli/program.js';
import { type AppRoute, isAdminRoute, listRoutes } from '../../src/openapi/list-routes.js';
import { createServer, type Server } from '../../src/server/server.js';
import { fences, inlineCode, markdownFiles, readDoc, ROOT } from '../docs/markdown.js';

const FILES = markdownFiles();

/** Flags of other programs that docs show as bare inline code (`--init`), with why they are there. */
const OTHER_TOOLS_FLAGS: Record<string, string> = {
  '--quick': 'bench/run.js and bench/server-limits.js (npm run bench -- --quick)',
  '--init': "docker run's (docs/containers.md: PID 1 and signals)",
  '--network': "podman/docker run's (docs/containers.md: reaching a receiver on the host)",
  '--add-host': "docker run's (docs/containers.md: host.docker.internal on Linux)",
  '--health-start-interval': "docker run's (docs/containers.md: the health check)",
  '--user': "podman/docker run's (docs/containers.md: a data volume owned by you)",
  '--runtime': "podman's (docs/containers.md: how the container suite runs podman)",
  '--cgroup-manager': "podman's (docs/containers.md: how the container suite runs podman)",
  '--isolation': "podman build's (docs/containers.md: how the container suite runs podman)",
  '--layers': "podman build's (docs/containers.md: how the container suite runs podman)",
  '--singleThreaded': "tsc's (docs/testing.md: how npm test runs the typecheck)",
  '--data-urlencode': "curl's (docs/getting-started.md: paying an ecom trade with the card form's fields)",
};

/** `DEPOSIT_SANDBOX_*` names the docs use that no code reads, with why they are there. */
const READER_VARIABLES: Record<string, string> = {
  DEPOSIT_SANDBOX_REPO: "docs/installing.md: the reader's own variable holding the repository URL to clone",
};

// ---- the CLI --------------------------------------------------------------------------------

const PROGRAM_FLAGS = listFlags(createProgram());
const COMMANDS = new Set(PROGRAM_FLAGS.map((f) => f.command).filter((c) => c !== ''));
const flagsOf = (command: string) => new Set(PROGRAM_FLAGS.filter((f) => f.command === command || f.command.startsWith(`${command} `) || f.command === '').flatMap((f) => (f.long ? [f.long] : [])));
const ANY_COMMAND = new Set(PROGRAM_FLAGS.flatMap((f) => (f.long ? [f.long] : [])));

/** `deposit-sandbox` as a program (not `deposit-sandbox:` of a message, `.deposit-sandbox`, or an image tagged with -t/--name). */
const PROGRAM = /(?<=^|[\s/'"(=])(?<!(?:-t|--tag|--name|-f) )deposit-sandbox(?::[\w.-]+)?(?=\s|$)/;
/** Where a shell command line stops: a pipe, a list, a background job, a comment, a subshell's end. */
const END_OF_COMMAND = /\s(?:\||&&|\|\||;|&|#)(?:\s|$)|[;)`]|\s&$/;
const FLAG = /^--[a-z][a-zA-Z0-9-]*/;

interface FlagUse {
  where: string;
  flag: string;
  /** The command it must belong to, or undefined for any command. */
  command: string | undefined;
  text: string;
}

/** The flags after `deposit-sandbox` on a command line, with the command they belong to. */
function commandLineFlags(line: string): { command: string; flags: string[] } | undefined {
  const match = PROGRAM.exec(line);
  if (!match) return undefined;
  const rest = line.slice(match.index + match[0].length);
  const cut = END_OF_COMMAND.exec(rest);
  const words = (cut ? rest.slice(0, cut.index) : rest).trim().split(/\s+/).filter(Boolean);
  const command = words[0] !== undefined && COMMANDS.has(words[0]) ? words[0] : 'serve';
  return { command, flags: words.flatMap((w) => FLAG.exec(w)?.[0] ?? []) };
}

function flagUses(): FlagUse[] {
  const uses: FlagUse[] = [];
  for (const file of FILES) {
    const markdown = readDoc(file);
    for (const fence of fences(file, markdown)) {
      // Lines joined where a shell line goes on (a trailing backslash).
      const lines = fence.code.replace(/\\\n/g, ' ').split('\n');
      for (const line of lines) {
        const found = commandLineFlags(line);
        for (const flag of found?.flags ?? []) uses.push({ where: `${file}:${fence.line}`, flag, command: found!.command, text: line.trim() });
      }
    }
    for (const { line, code } of inlineCode(markdown)) {
      const where = `${file}:${line}`;
      const found = commandLineFlags(code);
      if (found) {
        for (const flag of found.flags) uses.push({ where, flag, command: found.command, text: code });
        continue;
      }
      const words = code.split(/\s+/);
      const first = words[0] ?? '';
      if (first.startsWith('--')) {
        for (const word of words) {
          const flag = FLAG.exec(word)?.[0];
          if (flag) uses.push({ where, flag, command: undefined, text: code });
        }
      } else if (COMMANDS.has(first) && words[1]?.startsWith('--')) {
        for (const word of words.slice(1)) {
          const flag = FLAG.exec(word)?.[0];
          if (flag) uses.push({ where, flag, command: first, text: code });
        }
      }
    }
  }
  return uses;
}

// ---- repository paths -------------------------------------------------------------------------

const REPO_PATH = /^(?:\.\/)?((?:src|test|docs|scripts|examples|bin|fixtures|scenarios|bench)\/\S*)$/;
const PLACEHOLDER = /[<{$]|^:|\.\.\.|…/;

/** True when `path` (relative to the root, maybe ending in a glob or a placeholder) names something in the checkout. */
function pathExists(path: string): boolean {
  const clean = path.replace(/[#:].*$/, '').replace(/\/$/, '');
  const segments = clean.split('/');
  const placeholder = segments.findIndex((s) => PLACEHOLDER.test(s));
  const known = placeholder < 0 ? segments : segments.slice(0, placeholder);
  const glob = known.findIndex((s) => s.includes('*'));
  if (glob < 0) return existsSync(join(ROOT, ...known));
  const folder = join(ROOT, ...known.slice(0, glob));
  if (!existsSync(folder) || !statSync(folder).isDirectory()) return false;
  const pattern = new RegExp(`^${known[glob]!.replace(/[.+?^()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`);
  return readdirSync(folder).some((name) => pattern.test(name));
}

// ---- URL paths ----------------------------------------------------------------------------------

const URL_PATH = /^(?:(GET|POST|PUT|DELETE|PATCH|HEAD) )?(\/(?:_sandbox|w\/|pay|api|assets|openapi\.json)[^\s]*)(?:\s.*)?$/;
const URL_PLACEHOLDER = /^(<.*>|:.+|\$.*|\{.*\}|\*)$/;

/** Does the documented path (segments) match the route, entirely or (prefix) as its start? */
function segmentsMatch(documented: string[], route: string[], prefix: boolean): boolean {
  if (prefix ? documented.length > route.length : documented.length !== route.length) return false;
  return documented.every((segment, i) => segment === route[i] || URL_PLACEHOLDER.test(segment) || route[i]!.startsWith(':'));
}

/** Why the documented URL is not a route of the app, or undefined when it is one. */
function routeProblem(code: string, routes: AppRoute[]): string | undefined {
  const match = URL_PATH.exec(code);
  if (!match) return undefined;
  const method = match[1];
  let path = match[2]!.replace(/[?#].*$/, '');
  let prefix = method === undefined;
  if (/(\/\*|\.\.\.|…)$/.test(path)) {
    path = path.replace(/\/?(\*|\.\.\.|…)$/, '');
    prefix = true;
  }
  // A workspace's routes are the default sandbox's: /w/<name>/x is /x.
  path = path.replace(/^\/w\/[^/]+/, '');
  if (path === '') return undefined;
  const documented = path.split('/');
  const found = routes.some(
    (route) => (method === undefined || route.method === method || route.method === 'ALL' || (method === 'HEAD' && route.method === 'GET')) && segmentsMatch(documented, route.path.split('/'), prefix),
  );
  return found ? undefined : `no route ${method ? `${method} ` : ''}${path}${prefix && method === undefined ? ' (nor one that starts with it)' : ''}`;
}

let sandbox: Server;
let routes: AppRoute[];
beforeAll(async () => {
  sandbox = await createServer({ inMemory: true });
  routes = listRoutes(createApp(sandbox));
});
afterAll(() => sandbox.close());

describe('what the docs name exists', () => {
  it('every backticked repository path is a file or folder of the checkout', () => {
    const missing: string[] = [];
    for (const file of FILES) {
      for (const { line, code, heading } of inlineCode(readDoc(file))) {
        const path = REPO_PATH.exec(code)?.[1];
        if (path === undefined || pathExists(path)) continue;
        // Relative to a folder the section's heading names (`## PHP: `examples/php``).
        const folders = [...heading.matchAll(/`([^`]+)`/g)].map((m) => m[1]!.replace(/\/$/, '')).filter((f) => REPO_PATH.test(f));
        if (folders.some((folder) => pathExists(`${folder}/${path}`))) continue;
        missing.push(`${file}:${line}: \`${code}\``);
      }
    }
    expect(missing, 'these paths are not in the checkout: correct the page (or the heading naming the folder they are relative to)').toEqual([]);
  });

  it('every backticked URL path is a route of the app', () => {
    expect(routes.length).toBeGreaterThan(10);
    const wrong: string[] = [];
    for (const file of FILES) {
      for (const { line, code } of inlineCode(readDoc(file))) {
        const problem = routeProblem(code, routes);
        if (problem) wrong.push(`${file}:${line}: \`${code}\`: ${problem}`);
      }
    }
    expect(wrong, `the app has no such route (its routes: ${routes.map((r) => `${r.method} ${r.path}`).join(', ')})`).toEqual([]);
  });

  it('every route of the admin API is named in the docs, with its method', () => {
    const shape = (method: string, path: string) =>
      `${method} ${path
        .replace(/^\/w\/[^/]+(?=\/)/, '')
        .split('/')
        .map((s) => (URL_PLACEHOLDER.test(s) ? ':' : s))
        .join('/')}`;
    const named = new Set<string>();
    for (const file of FILES) {
      for (const { code } of inlineCode(readDoc(file))) {
        const match = /^(GET|POST|PUT|DELETE|PATCH) (\/\S*)/.exec(code);
        if (match) named.add(shape(match[1]!, match[2]!.replace(/[?#].*$/, '')));
      }
    }
    const unnamed = routes.filter(isAdminRoute).filter((r) => !named.has(shape(r.method, r.path)));
    expect(
      unnamed.map((r) => `${r.method} ${r.path}`),
      'describe these routes in docs/admin-api.md (a heading such as ## `POST /_sandbox/merchants`), then run `npm run docs`',
    ).toEqual([]);
  });

  it('every --flag is a flag of the command it is written with', () => {
    const wrong: string[] = [];
    for (const use of flagUses()) {
      if (use.command !== undefined) {
        if (!flagsOf(use.command).has(use.flag)) wrong.push(`${use.where}: ${use.flag} is not a flag of \`deposit-sandbox ${use.command}\` (in: ${use.text})`);
      } else if (!ANY_COMMAND.has(use.flag) && !(use.flag in OTHER_TOOLS_FLAGS)) {
        wrong.push(`${use.where}: ${use.flag} is not a flag of any deposit-sandbox command (in: ${use.text})`);
      }
    }
    expect(wrong, 'correct the page, or add the flag of another tool to OTHER_TOOLS_FLAGS in test/in-process/docs-drift.test.ts with the reason').toEqual([]);
  });

  it('every flag of another tool allowed above is still written in the docs', () => {
    const written = new Set(flagUses().map((u) => u.flag));
    expect(
      Object.keys(OTHER_TOOLS_FLAGS).filter((flag) => !written.has(flag) || ANY_COMMAND.has(flag)),
      'remove these from OTHER_TOOLS_FLAGS',
    ).toEqual([]);
  });

  it('the checks above see the docs: they find flags, paths and routes to check', () => {
    const uses = flagUses();
    expect(uses.filter((u) => u.command === 'serve').length).toBeGreaterThan(20);
    expect(uses.filter((u) => u.command === 'wait').length).toBeGreaterThan(0);
    expect(uses.filter((u) => u.command === undefined).length).toBeGreaterThan(20);
  });
});

/** The text of the checkout's code, examples and scripts (not docs/, dist/ or dependencies). */
function codeText(): string {
  const skip = /(^|\/)(node_modules|dist|docs|\.git|\.venv|vendor|__pycache__|test-artifacts|coverage)(\/|$)|\.(md|png|jpg|ico|woff2?)$/;
  const texts: string[] = [];
  for (const entry of readdirSync(ROOT, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    if (skip.test(path.slice(ROOT.length))) continue;
    texts.push(readFileSync(path, 'utf8'));
  }
  return texts.join('\n');
}

describe('environment variables', () => {
  it('every DEPOSIT_SANDBOX_* the docs name is read by a flag or by the code', () => {
    const flagEnvs = new Set(PROGRAM_FLAGS.flatMap((f) => (f.env ? [f.env] : [])));
    const code = codeText();
    const unread: string[] = [];
    for (const file of FILES) {
      for (const name of new Set(readDoc(file).match(/DEPOSIT_SANDBOX_[A-Z0-9_]+/g) ?? [])) {
        if (flagEnvs.has(name) || name in READER_VARIABLES || new RegExp(`\\b${name}\\b`).test(code)) continue;
        unread.push(`${file}: ${name}`);
      }
    }
    expect(unread, 'nothing reads these variables: correct the page, or add a variable of the reader to READER_VARIABLES with the reason').toEqual([]);
  });
});

describe('what docs/admin-api.md says of request bodies', () => {
  const send = (method: string, path: string, body: string, type: string) => createApp(sandbox).request(path, { method, body, headers: { 'Content-Type': type } });

  it('transition, clock advance and check-callback take JSON sent as application/json only', async () => {
    for (const path of ['/_sandbox/trades/00000000-0000-4000-8000-000000000000/transition', '/_sandbox/clock/advance', '/_sandbox/check-callback']) {
      const res = await send('POST', path, '{}', 'text/plain');
      expect(res.status, path).toBe(422);
      expect(((await res.json()) as { error: { code: string; message: string } }).error).toMatchObject({ code: 'invalid_json', message: expect.stringMatching(/application\/json/) });
    }
  });

  it('merchants and their sign route read JSON whatever the Content-Type; scenarios take YAML', async () => {
    const added = await send('POST', '/_sandbox/merchants', '{"name":"Shop of the docs"}', 'text/plain');
    expect(added.status).toBe(201);
    const { merchant } = (await added.json()) as { merchant: { id: string } };
    const signed = await send('POST', `/_sandbox/merchants/${merchant.id}/sign`, '{"string_to_sign":"x"}', 'application/x-www-form-urlencoded');
    expect(signed.status).toBe(200);
    const yaml =
      'scenarios:\n  - name: docs-upload\n    description: Orders starting with docs- are paid after two minutes.\n    match:\n      order: "^docs-"\n    timeline:\n      - after: 2m\n        state: confirmed\n';
    const uploaded = await send('PUT', '/_sandbox/scenarios', yaml, 'text/plain');
    expect(uploaded.status, await uploaded.clone().text()).toBe(200);
    expect(((await uploaded.json()) as { added: string[] }).added).toEqual(['docs-upload']);
  });
});

describe('the checks themselves', () => {
  it('read a deposit-sandbox command line up to where the shell command ends', () => {
    expect(commandLineFlags('npx deposit-sandbox wait --url http://x --timeout 2s && curl --silent x')).toEqual({ command: 'wait', flags: ['--url', '--timeout'] });
    expect(commandLineFlags('npx deposit-sandbox --port 0 --in-memory &')).toEqual({ command: 'serve', flags: ['--port', '--in-memory'] });
    expect(commandLineFlags('podman build -t deposit-sandbox --build-arg X=1 .')).toBeUndefined();
    expect(commandLineFlags('deposit-sandbox: Could not reach the sandbox; point --url at it')).toBeUndefined();
  });

  it('tell a route from a path the app does not serve', () => {
    expect(routeProblem('GET /_sandbox/trades/:id', routes)).toBeUndefined();
    expect(routeProblem('POST /w/<name>/_sandbox/merchants/<id>/sign', routes)).toBeUndefined();
    expect(routeProblem('/_sandbox/*', routes)).toBeUndefined();
    expect(routeProblem('/_sandbox/assets/workspaces.js', routes)).toMatch(/no route/);
    expect(routeProblem('DELETE /_sandbox/trades/:id', routes)).toMatch(/no route DELETE/);
  });

  it('find paths with globs and placeholders', () => {
    expect(pathExists('test/browser/*.test.ts')).toBe(true);
    expect(pathExists('src/pages/*-routes.test.ts')).toBe(true);
    expect(pathExists('src/cli/program.ts:42')).toBe(true);
    expect(pathExists('src/nowhere/*.ts')).toBe(false);
    expect(pathExists('test/report-dashboard.test.ts')).toBe(false);
  });
});
