/**
 * The package as a user gets it: `npm pack`, then `npm install <tarball>` in an empty temp
 * folder (dependencies from the npm registry, or npm's cache), then the CLI through npx, the
 * import with its types (tsc), the bundled fixtures and scenarios, and the README's example
 * test run against the installed copy. Packs the build in dist/ (`npm test` builds first; run
 * `npm run build` before running this file alone).
 */
import { execFile, spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect } from 'vitest';
import { it, test } from './temp-folder.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string };

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a command to completion (bounded); never rejects. */
function run(file: string, args: string[], cwd: string, timeout = 60_000): Promise<Run> {
  // npm prints warnings about the user's own npmrc on stderr; keep the environment otherwise as is.
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('DEPOSIT_SANDBOX_') && name !== 'PORT'));
  return new Promise((resolve) => {
    execFile(file, args, { cwd, env: { ...env, npm_config_update_notifier: 'false' }, timeout, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr: stderr + (error && typeof error.code !== 'number' ? String(error) : '') });
    });
  });
}

/** The pid of the `deposit-sandbox` process that `npx` (pid `root`) started: the one leaf of its process tree running it. */
async function sandboxPid(root: number): Promise<number> {
  const ps = await run('ps', ['-A', '-o', 'pid=,ppid=,args='], ROOT);
  expect(ps.code, ps.stderr).toBe(0);
  const rows = ps.stdout
    .split('\n')
    .map((line) => /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line))
    .filter((match) => match !== null)
    .map((match) => ({ pid: Number(match[1]), ppid: Number(match[2]), args: match[3]! }));
  const tree = new Set([root]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const row of rows) {
      if (tree.has(row.ppid) && !tree.has(row.pid)) {
        tree.add(row.pid);
        grew = true;
      }
    }
  }
  const leaves = rows.filter((row) => tree.has(row.pid) && row.pid !== root && !rows.some((other) => other.ppid === row.pid));
  const sandboxes = leaves.filter((row) => row.args.includes('deposit-sandbox'));
  expect(
    sandboxes.map((row) => row.args),
    ps.stdout,
  ).toHaveLength(1);
  return sandboxes[0]!.pid;
}

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';

let temp: string;
let app: string;
let files: string[];

test.beforeAll(async ({ fileFolder }) => {
  temp = fileFolder;
  app = join(temp, 'app');
  mkdirSync(app);
  // The build is current (npm test builds first): skip the prepare script's second build.
  const packed = await run(npm, ['pack', '--ignore-scripts', '--json', '--pack-destination', temp], ROOT);
  expect(packed.code, packed.stderr).toBe(0);
  const [info] = JSON.parse(packed.stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
  files = info!.files.map((f) => f.path);

  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'pack-check', private: true, type: 'module' }));
  const installed = await run(npm, ['install', join(temp, info!.filename), '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error'], app, 120_000);
  expect(installed.code, installed.stderr).toBe(0);
}, 180_000);

describe('the packed tarball', () => {
  it('holds the CLI, the build with its types, the fixtures, the scenarios and the profiles, and nothing from the tests', () => {
    for (const file of [
      'package.json',
      'bin/deposit-sandbox.js',
      'dist/index.js',
      'dist/index.d.ts',
      'dist/lib/index.mjs',
      'dist/cli/deposit-sandbox.cjs',
      'dist/cli/code-cache.cjs',
      'bin/package.json',
      'dist/client/pay.js',
      'dist/client/dashboard.js',
      'fixtures/merchants.json',
      'scenarios/schema.json',
      'profiles/profile.schema.json',
      'profiles/sandbox.yaml',
      'profiles/strict.yaml',
    ]) {
      expect(files).toContain(file);
    }
    expect(files.filter((f) => f.startsWith('scenarios/') && f.endsWith('.yaml')).length).toBeGreaterThanOrEqual(3);
    expect(files.filter((f) => /(^|\/)test\/|\.test\.|^src\/|^examples\/|^bench\/|^scripts\/|\.map$|^\.ci\//.test(f))).toEqual([]);
  });

  it('installs into an empty folder with a working `npx deposit-sandbox --version` and `--help`', async () => {
    const version = await run(npx, ['deposit-sandbox', '--version'], app);
    expect(version.code, version.stderr).toBe(0);
    expect(version.stdout.trim()).toBe(pkg.version);
    const help = await run(npx, ['deposit-sandbox', '--help'], app);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: deposit-sandbox [options] [command]');
    for (const command of ['serve', 'scenarios', 'trigger', 'sign', 'reset', 'check-callback']) expect(help.stdout).toContain(`  ${command} `);
    // The installed copy finds its bundled scenarios: the command npx runs (node_modules/.bin), without npx's start-up a third time.
    const scenarios = await run(join(app, 'node_modules', '.bin', process.platform === 'win32' ? 'deposit-sandbox.cmd' : 'deposit-sandbox'), ['scenarios', '--json'], app);
    expect(scenarios.code, scenarios.stderr).toBe(0);
    expect((JSON.parse(scenarios.stdout) as { scenarios: Array<{ bundled: boolean }> }).scenarios.every((s) => s.bundled)).toBe(true);
  });

  it("imports startSandbox from 'deposit-sandbox', with the bundled fixtures and scenarios", async () => {
    const installed = join(app, 'node_modules', pkg.name);
    expect(existsSync(join(installed, 'scenarios', 'schema.json'))).toBe(true);
    expect(readdirSync(installed).sort()).toEqual(
      ['LICENSE', 'README.md', 'bin', 'dist', 'fixtures', 'package.json', 'profiles', 'scenarios'].filter((name) => name !== 'README.md' || files.includes('README.md')),
    );
    writeFileSync(
      join(app, 'smoke.mjs'),
      `import { startSandbox, sign, stringToSign } from 'deposit-sandbox';
const sandbox = await startSandbox();
try {
  const [merchant] = sandbox.merchants;
  const body = { merchant: merchant.id, order: 'pack-1', amount_cents: 31250, amount_currency: 'RUB', type: 'any_bank' };
  const res = await fetch(sandbox.url + '/api/v1/trades/deposit/create', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Auth': sign(merchant.secret, stringToSign('create', body)) },
    body: JSON.stringify(body),
  });
  const scenarios = await sandbox.admin.scenarios();
  console.log(JSON.stringify({ status: res.status, merchant: merchant.name, scenarios: scenarios.length, openapi: (await fetch(sandbox.url + '/openapi.json')).status, scripts: [(await fetch(sandbox.url + '/assets/pay.js')).status, (await fetch(sandbox.url + '/_sandbox/assets/dashboard.js')).status] }));
} finally {
  await sandbox.close();
}
`,
    );
    const smoke = await run(process.execPath, ['smoke.mjs'], app);
    expect(smoke.code, smoke.stderr).toBe(0);
    const result = JSON.parse(smoke.stdout) as { status: number; merchant: string; scenarios: number; openapi: number; scripts: number[] };
    // The browser scripts are served from the installed package's dist/client/.
    expect(result).toMatchObject({ status: 201, merchant: 'Demo Shop', openapi: 200, scripts: [200, 200] });
    expect(result.scenarios).toBeGreaterThan(0);
    // CommonJS code (Node >= 20.19 loads ES modules with require) finds it too.
    const required = await run(process.execPath, ['-e', "console.log(typeof require('deposit-sandbox').startSandbox)"], app);
    expect(required.stdout.trim(), required.stderr).toBe('function');
  });

  it("has types: tsc checks a TypeScript user's file and the README example against the installed package", async () => {
    writeFileSync(
      join(app, 'typed.ts'),
      `import { AdminClientError, loadProfile, signatureHeader, signRequest, startSandbox, verifyCallbackSignature, type AdminTrade, type CallbackEvent, type ErrorEnvelope, type Profile, type RunningSandbox, type SandboxOptions, type Trade, type TradeState } from 'deposit-sandbox';

const options: SandboxOptions = { clock: 'manual', auth: 'either', seed: 1 };
const sandbox: RunningSandbox = await startSandbox(options);
const trades: AdminTrade[] = (await sandbox.admin.trades({ state: 'created', limit: 5 })).trades;
const state: TradeState | undefined = trades[0]?.state;
const event: CallbackEvent = await sandbox.callbacks.waitFor({ state: 'confirmed' }, { timeout: 10 }).catch(() => ({}) as CallbackEvent);
const ok: boolean = verifyCallbackSignature('secret', event.body ?? '', null);
const profile: Profile = sandbox.profile;
const signed: Record<string, string> = { [signatureHeader(profile, 'get')]: signRequest(loadProfile('md5-colon'), 'secret', 'get', { merchant: 'm', uuid: 'u' }) };
const own: Profile = await sandbox.workspace('typed').setProfile('strict');
// @ts-expect-error: the endpoints are create, build and get
signatureHeader(profile, 'refund');
const trade: Trade | undefined = undefined;
const envelope: ErrorEnvelope | undefined = undefined;
// @ts-expect-error: "paid" is not a trade state
await sandbox.admin.transition('id', 'paid').catch((e: unknown) => e instanceof AdminClientError);
// @ts-expect-error: auth is token, signature, either or off
await startSandbox({ auth: 'sometimes' }).catch(() => undefined);
const durable = await startSandbox({ seed: 1, data: await import('node:os').then((os) => os.tmpdir() + '/deposit-sandbox-typed-' + process.pid), fsync: true });
// @ts-expect-error: the sandbox's parts are internal
durable.sandbox;
await durable.close();
console.log(state, ok, trade, envelope, signed, own.name);
await sandbox.close();
`,
    );
    copyFileSync(join(ROOT, 'examples', 'merchant-flow.test.ts'), join(app, 'merchant-flow.test.ts'));
    // The example imports vitest, which a user installs beside the package: lend ours.
    symlinkSync(join(ROOT, 'node_modules', 'vitest'), join(app, 'node_modules', 'vitest'), 'junction');
    writeFileSync(
      join(app, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2023',
          lib: ['ES2023', 'DOM'],
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          noUncheckedIndexedAccess: true,
          noEmit: true,
          skipLibCheck: true,
          typeRoots: [join(ROOT, 'node_modules', '@types')],
          types: ['node'],
        },
        files: ['typed.ts', 'merchant-flow.test.ts'],
      }),
    );
    const tsc = await run(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'], app, 120_000);
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.code).toBe(0);
  });

  it('runs the README example test against the installed package', async () => {
    // Needs the copy and the vitest link from the previous test; make them when run alone.
    if (!existsSync(join(app, 'merchant-flow.test.ts'))) copyFileSync(join(ROOT, 'examples', 'merchant-flow.test.ts'), join(app, 'merchant-flow.test.ts'));
    if (!existsSync(join(app, 'node_modules', 'vitest'))) symlinkSync(join(ROOT, 'node_modules', 'vitest'), join(app, 'node_modules', 'vitest'), 'junction');
    writeFileSync(join(app, 'vitest.config.mjs'), 'export default { test: { include: ["merchant-flow.test.ts"] } };\n');
    const vitest = await run(process.execPath, [join(ROOT, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--root', app, '--reporter', 'json'], app, 120_000);
    expect(vitest.code, vitest.stderr).toBe(0);
    const report = JSON.parse(vitest.stdout.slice(vitest.stdout.indexOf('{'))) as { numPassedTests: number; numFailedTests: number; testResults: Array<{ name: string }> };
    expect(report).toMatchObject({ numPassedTests: 2, numFailedTests: 0 });
    expect(report.testResults[0]?.name).toBe(join(app, 'merchant-flow.test.ts'));
  });

  it('serves through `npx deposit-sandbox --port 0 --in-memory`: a create answers 201, SIGTERM exits 0', async () => {
    // The bundled demo merchant, from the installed package's own fixtures file.
    const fixtures = JSON.parse(readFileSync(join(app, 'node_modules', pkg.name, 'fixtures', 'merchants.json'), 'utf8')) as { merchants: Array<{ id: string; token: string }> };
    const merchant = fixtures.merchants[0]!;
    const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('DEPOSIT_SANDBOX_') && name !== 'PORT'));
    // Its own process group, so that the finally below can end npx and whatever it started.
    const child = spawn(npx, ['deposit-sandbox', '--port', '0', '--in-memory'], {
      cwd: app,
      env: { ...env, npm_config_update_notifier: 'false' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: process.platform !== 'win32',
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const within = <T>(promise: Promise<T>, ms: number, what: string) => {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_resolve, reject) => {
        timer = setTimeout(() => reject(new Error(`${what} within ${ms} ms\nstdout: ${stdout}\nstderr: ${stderr}`)), ms);
      });
      return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
    };
    try {
      const ready = await within(
        new Promise<string>((resolve, reject) => {
          const check = () => {
            const newline = stdout.indexOf('\n');
            if (newline >= 0) resolve(stdout.slice(0, newline));
          };
          child.stdout.on('data', check);
          check();
          void exited.then((code) => reject(new Error(`npx deposit-sandbox exited (${code}) before its ready line\nstdout: ${stdout}\nstderr: ${stderr}`)));
        }),
        30_000,
        'no ready line',
      );
      const url = /^deposit-sandbox listening on (http:\/\/127\.0\.0\.1:\d+)$/.exec(ready)?.[1];
      expect(url, ready).toBeDefined();

      const res = await fetch(`${url}/api/v1/trades/deposit/create`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Auth': merchant.token },
        body: JSON.stringify({ merchant: merchant.id, order: 'pack-npx-1', amount_cents: 31250, amount_currency: 'RUB', type: 'any_bank' }),
      });
      const text = await res.text();
      expect(res.status, text).toBe(201);
      const trade = JSON.parse(text) as Record<string, unknown>;
      expect(Object.keys(trade)).toEqual(['id', 'order', 'merchant', 'state', 'amount_cents', 'amount_currency', 'rate', 'payment_data']);
      expect(trade).toMatchObject({ order: 'pack-npx-1', merchant: merchant.id, state: 'created' });

      // SIGTERM goes to the sandbox itself. npm's exec (seen with npm 11; npm/cli#6684) does not
      // forward a SIGTERM sent to npx alone: npx dies of it and the sandbox keeps running. When the
      // whole process group gets it, npx ends by the signal, not with its child's exit code. With
      // only the sandbox signalled, npx ends with the sandbox's own exit code.
      const sandbox = process.platform === 'win32' ? child.pid! : await sandboxPid(child.pid!);
      process.kill(sandbox, 'SIGTERM');
      expect(await within(exited, 15_000, 'no exit after SIGTERM'), stdout + stderr).toBe(0);
      expect(stdout).toContain('deposit-sandbox: SIGTERM received');
      await expect(fetch(`${url}/_sandbox/health`)).rejects.toThrow();
    } finally {
      if (child.pid !== undefined) {
        try {
          if (process.platform === 'win32') child.kill('SIGKILL');
          else process.kill(-child.pid, 'SIGKILL'); // the group: npx and the sandbox it started
        } catch {
          // already gone
        }
      }
    }
  }, 180_000);
});

describe('publishing', () => {
  it('`npm publish --dry-run` succeeds and would publish the same files as `npm pack`', async () => {
    // --ignore-scripts: the build is current (npm test builds first). Nothing is uploaded.
    const dry = await run(npm, ['publish', '--dry-run', '--ignore-scripts', '--json'], ROOT, 120_000);
    expect(dry.code, dry.stderr).toBe(0);
    type Published = { id: string; files: Array<{ path: string }> };
    const answer = JSON.parse(dry.stdout) as Record<string, unknown>;
    // npm 10 prints the package itself, npm 11 an object keyed by its name.
    const published = ('id' in answer ? answer : answer[pkg.name]) as Published | undefined;
    expect(published?.id).toBe(`${pkg.name}@${pkg.version}`);
    expect(published?.files.map((f) => f.path).sort()).toEqual([...files].sort());
  }, 150_000);

  it('the package builds itself when installed from git: `prepare` runs the build, and the release workflow publishes with provenance', () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    // scripts/prepare.js runs `npm run build` unless dist/ is built from the same sources.
    expect(manifest.scripts['prepare']).toBe('node scripts/prepare.js');
    expect(readFileSync(join(ROOT, 'scripts', 'prepare.js'), 'utf8')).toContain("'run', 'build'");
    const workflow = readFileSync(join(ROOT, '.github', 'workflows', 'release.yml'), 'utf8');
    expect(workflow).toMatch(/tags: \[["']v\*\.\*\.\*["']\]/);
    expect(workflow).toContain('id-token: write');
    expect(workflow).toContain('run: .ci/run');
    expect(workflow).toContain('npm publish --provenance');
  });
});
