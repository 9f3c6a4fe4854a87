/**
 * The crash-order model (test/crash-order.test.ts, test/crash-order-limits.test.ts): random
 * sequences of creates, transitions, workspace deletes, clean stops and kill -9 (idle, or with a
 * burst of creates in flight), each stop followed by a restart, run by fast-check's fc.commands
 * against a REAL sandbox process on a data folder of its own. The model holds what the sandbox
 * acknowledged in each workspace; after every restart (and at the end) every acknowledged trade
 * is in its workspace and in no other, in the state of its last acknowledged transition, nothing
 * refused was stored and nothing else is there.
 *
 * Workspace names include hostile ones: names of the server's own files (journal.0.ndjson,
 * journal.1.ndjson), two names that differ only in case, the default workspace both unprefixed
 * and as /w/default, and the encoded dot segments %2e%2e and %2e, which must be refused (404
 * invalid_workspace_name) and store nothing anywhere. Requests go out with the path exactly as
 * written (node:http with a path, never a URL object, which would resolve %2e%2e before sending).
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { request } from 'node:http';
import { type Dirent, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { DEMO } from './merchants.js';
import { cleanEnv, type SandboxProcess } from './sandbox-process.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const READY = /^deposit-sandbox listening on (http:\/\/127\.0\.0\.1:(\d+))$/m;
const spawned: ChildProcessWithoutNullStreams[] = [];

/**
 * Starts `command args` in the repository's folder (a shell that execs the CLI under a ulimit, a
 * test build) and resolves once it prints the sandbox's ready line. cleanUp() ends it.
 */
export function startSpawned(command: string, args: string[]): Promise<SandboxProcess> {
  const child = spawn(command, args, { cwd: ROOT, env: cleanEnv(), stdio: 'pipe' });
  spawned.push(child);
  let out = '';
  let err = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const found = READY.exec(out);
      if (found) resolve({ child, url: found[1]!, port: Number(found[2]), stdout: () => out, stderr: () => err, exited });
    });
    void exited.then((code) => reject(new Error(`${command} exited (${code}) before its ready line:\n${out}\n${err}`)));
  });
}

/** Data folders of sequences not disposed of yet (a test that timed out in the middle of one). */
const folders = new Set<string>();

/** Kills every process startSpawned() started that still runs and removes the data folders left (call in afterAll). */
export function cleanUp(): void {
  for (const child of spawned.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  folders.clear();
}

/**
 * The highest generation of the workspaces' journal in a data folder (-1 when there is none),
 * wherever the server keeps it: in the workspaces' folder or in its own sub-folder.
 */
export function journalGeneration(data: string): number {
  let highest = -1;
  for (const folder of [join(data, 'workspaces'), join(data, 'workspaces', '@journal')]) {
    let entries: Dirent[];
    try {
      entries = readdirSync(folder, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      const generation = entry.isFile() ? /^journal\.(\d+)\.ndjson$/.exec(entry.name)?.[1] : undefined;
      if (generation !== undefined) highest = Math.max(highest, Number(generation));
    }
  }
  return highest;
}

/** Where a request goes: the workspace it stores in (undefined: the name must be refused). */
export interface Spot {
  /** The path prefix, as sent. */
  prefix: string;
  /** The workspace it stores in, or undefined when the sandbox must refuse the name. */
  workspace: string | undefined;
}

export const SPOTS: readonly Spot[] = [
  { prefix: '', workspace: 'default' },
  { prefix: '/w/default', workspace: 'default' },
  { prefix: '/w/worker', workspace: 'worker' },
  // Names of the server's own files in the workspaces' folder: ordinary workspaces for a tenant.
  { prefix: '/w/journal.0.ndjson', workspace: 'journal.0.ndjson' },
  { prefix: '/w/journal.1.ndjson', workspace: 'journal.1.ndjson' },
  // One folder on a case-insensitive file system: there the second is refused (409), never shared.
  { prefix: '/w/Twin', workspace: 'Twin' },
  { prefix: '/w/twin', workspace: 'twin' },
  // Dot segments, encoded: refused, stored nowhere (not in default, not in a folder above).
  { prefix: '/w/%2e%2e', workspace: undefined },
  { prefix: '/w/%2e', workspace: undefined },
];

/** The workspaces a sequence can store in (default first). */
export const WORKSPACES = [...new Set(SPOTS.flatMap((spot) => (spot.workspace ? [spot.workspace] : [])))];

const label = (spot: Spot) => (spot.prefix === '' ? '(unprefixed)' : spot.prefix.slice(3));

/** A trade as the model knows it: `sure` once acknowledged (or seen after a restart), else it may or may not exist. */
interface TradeModel {
  order: string;
  id: string | undefined;
  state: string;
  sure: boolean;
}

interface WorkspaceModel {
  /** By order (unique across the whole run), in the order created. */
  trades: Map<string, TradeModel>;
  /** Known to exist (a create was acknowledged in it, or it was listed after a restart), known not to, or either (a kill -9 cut its first create short). */
  exists: boolean | 'maybe';
}

export interface Model {
  workspaces: Map<string, WorkspaceModel>;
  /** The data folder's file system folds case: names differing only in case may then be refused (409). */
  foldsCase: boolean;
}

/** How a real sandbox process is started on a data folder (the CLI, or a test build with a small journal). */
export type Launch = (data: string) => Promise<SandboxProcess>;

/** The system under test: a data folder and the process running on it. */
export class Real {
  readonly data: string;
  proc: SandboxProcess;
  readonly #launch: Launch;
  starts = 1;

  private constructor(data: string, proc: SandboxProcess, launch: Launch) {
    this.data = data;
    this.proc = proc;
    this.#launch = launch;
  }

  static async start(launch: Launch): Promise<Real> {
    const data = mkdtempSync(join(tmpdir(), 'deposit-sandbox-crash-order-'));
    folders.add(data);
    try {
      return new Real(data, await launch(data), launch);
    } catch (error) {
      rmSync(data, { recursive: true, force: true });
      folders.delete(data);
      throw error;
    }
  }

  get port(): number {
    return this.proc.port;
  }

  get alive(): boolean {
    return this.proc.child.exitCode === null && this.proc.child.signalCode === null;
  }

  /** Starts a new process on the same folder (the previous one has exited). */
  async restart(): Promise<void> {
    this.proc = await this.#launch(this.data);
    this.starts++;
  }

  /** The last lines the current process wrote to stderr (for a failure's message). */
  stderrTail(): string {
    return this.proc.stderr().split('\n').slice(-15).join('\n');
  }

  /** Kills the process (if running) and waits for its exit, then removes the data folder. */
  async dispose(): Promise<void> {
    if (this.alive) this.proc.child.kill('SIGKILL');
    await this.proc.exited;
    rmSync(this.data, { recursive: true, force: true });
    folders.delete(this.data);
  }
}

/** Whether the file system of the temporary folder (where the data folders are) finds a file under its name in other case. */
function tmpFoldsCase(): boolean {
  const folder = mkdtempSync(join(tmpdir(), 'deposit-sandbox-case-'));
  try {
    writeFileSync(join(folder, 'probe'), '');
    return statSync(join(folder, 'PROBE'), { throwIfNoEntry: false }) !== undefined;
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

let folds: boolean | undefined;

export function initialModel(): Model {
  folds ??= tmpFoldsCase();
  return { workspaces: new Map(WORKSPACES.map((name) => [name, { trades: new Map(), exists: name === 'default' }])), foldsCase: folds };
}

interface Answer {
  status: number;
  body: string;
}

/**
 * One request on a connection of its own (a restarted process never sees a stale one), the path
 * sent as written. Resolves with the answer, or undefined when none came whole (the process died).
 */
export function send(port: number, method: string, path: string, body?: string, headers: Record<string, string> = {}): Promise<Answer | undefined> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, method, path, agent: false, headers: body === undefined ? headers : { 'Content-Type': 'application/json', ...headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve(res.complete ? { status: res.statusCode ?? 0, body: text } : undefined));
      res.on('error', () => resolve(undefined));
      res.on('aborted', () => resolve(undefined));
    });
    req.on('error', () => resolve(undefined));
    req.end(body);
  });
}

/** Parses a JSON answer, failing with the answer in the message. */
function json<T>(answer: Answer): T {
  try {
    return JSON.parse(answer.body) as T;
  } catch {
    throw new Error(`not JSON (${answer.status}): ${answer.body.slice(0, 300)}`);
  }
}

/** A failure with what the sandbox said on stderr last (its notes on what it dropped or could not read). */
function fail(real: Real, message: string): never {
  const tail = real.stderrTail().trim();
  throw new Error(tail === '' ? message : `${message}\n  the sandbox's stderr ends with:\n${tail.replace(/^/gm, '    ')}`);
}

let orders = 0;
/** An order id unique in this test process, so that a trade found anywhere says where it was created. */
const nextOrder = () => `co-${process.pid}-${++orders}`;

const createBody = (order: string) => JSON.stringify({ merchant: DEMO.id, order, amount_cents: 31250, amount_currency: 'RUB', type: 'any_bank' });

/**
 * What an answered create must be, and what it leaves in the model. `stopping`: the sandbox was
 * sent SIGTERM, and may refuse a workspace it has not opened yet (503 shutting_down, nothing stored).
 */
function acknowledge(model: Model, real: Real, spot: Spot, order: string, answer: Answer, stopping = false): void {
  const where = `create ${order} in ${label(spot)}`;
  if (spot.workspace === undefined) {
    if (answer.status !== 404 || json<{ error?: { code?: string } }>(answer).error?.code !== 'invalid_workspace_name') {
      fail(real, `${where}: expected 404 invalid_workspace_name (the name must be refused), got ${answer.status} ${answer.body.slice(0, 300)}`);
    }
    return;
  }
  const ws = model.workspaces.get(spot.workspace)!;
  const twin = twinOf(spot.workspace);
  const code = answer.status >= 400 ? json<{ error?: { code?: string } }>(answer).error?.code : undefined;
  // On a file system that folds case, a name whose twin exists is refused; a stopping sandbox opens no new workspace. Nothing is stored.
  const refused =
    (answer.status === 409 && code === 'workspace_name_taken' && model.foldsCase && twin !== undefined && model.workspaces.get(twin)?.exists !== false) ||
    (answer.status === 503 && code === 'shutting_down' && stopping && ws.exists !== true);
  if (refused) {
    ws.trades.delete(order);
    return;
  }
  if (answer.status !== 201) fail(real, `${where}: expected 201, got ${answer.status} ${answer.body.slice(0, 300)}`);
  const trade = json<{ id: string; state: string; order: string }>(answer);
  ws.trades.set(order, { order, id: trade.id, state: trade.state, sure: true });
  ws.exists = true;
}

/** The other of the two names that differ only in case. */
function twinOf(name: string): string | undefined {
  return WORKSPACES.find((other) => other !== name && other.toLowerCase() === name.toLowerCase());
}

/** Sends creates to `spots` all at once; every one must be answered as the model says. */
async function createAll(model: Model, real: Real, spots: readonly Spot[]): Promise<void> {
  await Promise.all(
    spots.map(async (spot) => {
      const order = nextOrder();
      const answer = await send(real.port, 'POST', `${spot.prefix}/api/v1/trades/deposit/create`, createBody(order), { 'X-Auth': DEMO.token });
      if (answer === undefined) fail(real, `create ${order} in ${label(spot)}: no answer from a running sandbox`);
      acknowledge(model, real, spot, order, answer);
    }),
  );
}

/** The trades of one workspace as the admin API lists them. */
async function listTrades(real: Real, workspace: string): Promise<Array<{ id: string; order: string; state: string }>> {
  const prefix = workspace === 'default' ? '' : `/w/${workspace}`;
  const trades: Array<{ id: string; order: string; state: string }> = [];
  for (let offset = 0; ; offset += 1000) {
    const answer = await send(real.port, 'GET', `${prefix}/_sandbox/trades?limit=1000&offset=${offset}`);
    if (answer?.status !== 200) fail(real, `GET ${prefix}/_sandbox/trades: ${answer ? `${answer.status} ${answer.body.slice(0, 300)}` : 'no answer'}`);
    const page = json<{ trades: Array<{ id: string; order: string; state: string }> }>(answer).trades;
    trades.push(...page);
    if (page.length < 1000) return trades;
  }
}

/**
 * Compares the running sandbox with the model: the workspaces listed are those the model knows
 * (or may have, after a kill), every acknowledged trade is in its workspace and no other, in its
 * last acknowledged state, and no trade is there that the model does not know. Trades the model
 * was unsure of (a create cut short by kill -9) are settled: present exactly once in the right
 * workspace (from now on it must stay), or absent (it must never appear).
 */
export async function verify(model: Model, real: Real, when: string): Promise<void> {
  const listing = await send(real.port, 'GET', '/_sandbox/workspaces');
  if (listing?.status !== 200) fail(real, `${when}: GET /_sandbox/workspaces: ${listing ? `${listing.status} ${listing.body.slice(0, 300)}` : 'no answer'}`);
  const listed = new Set(json<{ workspaces: Array<{ name: string }> }>(listing).workspaces.map((w) => w.name));
  for (const name of listed) if (!model.workspaces.has(name)) fail(real, `${when}: a workspace "${name}" is listed that no request made`);
  /** Where each order was found, to catch one found twice. */
  const seen = new Map<string, string>();
  const problems: string[] = [];
  for (const [name, ws] of model.workspaces) {
    if (!listed.has(name)) {
      if (ws.exists === true) problems.push(`workspace "${name}" is gone (it holds ${[...ws.trades.values()].filter((t) => t.sure).length} acknowledged trades)`);
      for (const trade of ws.trades.values()) if (trade.sure) problems.push(`${trade.order} (${trade.id}) acknowledged in "${name}" is missing: its workspace is not listed`);
      ws.trades.clear();
      ws.exists = false;
      continue;
    }
    if (ws.exists === false) problems.push(`workspace "${name}" is listed, but no request made it since it was removed`);
    ws.exists = true;
    const found = new Set<string>();
    for (const trade of await listTrades(real, name)) {
      const earlier = seen.get(trade.order);
      if (earlier !== undefined) problems.push(`${trade.order} (${trade.id}) is in "${earlier}" and again in "${name}"`);
      seen.set(trade.order, name);
      found.add(trade.order);
      const known = ws.trades.get(trade.order);
      if (known === undefined) {
        const home = [...model.workspaces].find(([, other]) => other.trades.has(trade.order))?.[0];
        problems.push(
          home
            ? `${trade.order} (${trade.id}) created in "${home}" is found in "${name}"`
            : `${trade.order} (${trade.id}) in "${name}" was never acknowledged there (refused, removed, or settled absent)`,
        );
        continue;
      }
      if (known.sure && known.id !== trade.id) problems.push(`${trade.order} in "${name}" has id ${trade.id}, acknowledged as ${known.id}`);
      if (known.state !== trade.state) problems.push(`${trade.order} (${trade.id}) in "${name}" is ${trade.state}, acknowledged as ${known.state}`);
      known.id = trade.id;
      known.sure = true;
    }
    for (const trade of [...ws.trades.values()]) {
      if (found.has(trade.order)) continue;
      if (trade.sure) problems.push(`${trade.order} (${trade.id}) acknowledged in "${name}" as ${trade.state} is missing`);
      else ws.trades.delete(trade.order);
    }
  }
  if (problems.length > 0) fail(real, `${when}:\n  ${problems.slice(0, 12).join('\n  ')}${problems.length > 12 ? `\n  ... and ${problems.length - 12} more` : ''}`);
}

type Cmd = fc.AsyncCommand<Model, Real>;

/** Creates sent together (one burst), all answered. */
class Create implements Cmd {
  constructor(readonly spots: readonly Spot[]) {}
  check = () => true;
  async run(model: Model, real: Real): Promise<void> {
    await createAll(model, real, this.spots);
  }
  toString = () => `create(${this.spots.map(label).join(', ')})`;
}

/** Moves the n-th acknowledged trade of a workspace (by creation) to a state: 200 from created, 409 from a final state. */
class Transition implements Cmd {
  constructor(
    readonly spot: Spot,
    readonly index: number,
    readonly state: 'confirmed' | 'canceled' | 'expired',
  ) {}
  check = (model: Readonly<Model>) => this.spot.workspace !== undefined && [...model.workspaces.get(this.spot.workspace)!.trades.values()].some((t) => t.sure);
  async run(model: Model, real: Real): Promise<void> {
    const trades = [...model.workspaces.get(this.spot.workspace!)!.trades.values()].filter((t) => t.sure);
    const trade = trades[this.index % trades.length]!;
    const answer = await send(real.port, 'POST', `${this.spot.prefix}/_sandbox/trades/${trade.id}/transition`, JSON.stringify({ state: this.state }));
    const where = `transition of ${trade.order} (${trade.id}) in ${label(this.spot)} from ${trade.state} to ${this.state}`;
    if (answer === undefined) fail(real, `${where}: no answer from a running sandbox`);
    const expected = trade.state === 'created' ? 200 : 409;
    if (answer.status !== expected) fail(real, `${where}: expected ${expected}, got ${answer.status} ${answer.body.slice(0, 300)}`);
    if (expected === 200) trade.state = this.state;
  }
  toString = () => `transition(${label(this.spot)} #${this.index} -> ${this.state})`;
}

/** DELETE /w/<name>/_sandbox: 200 and gone when it exists, 404 when not, 409 for default, 404 invalid_workspace_name for a refused name. */
class Delete implements Cmd {
  constructor(readonly spot: Spot) {}
  check = () => true;
  async run(model: Model, real: Real): Promise<void> {
    const path = `${this.spot.prefix}/_sandbox`;
    const answer = await send(real.port, 'DELETE', path);
    if (answer === undefined) fail(real, `DELETE ${path}: no answer from a running sandbox`);
    const code = answer.status >= 400 ? json<{ error?: { code?: string } }>(answer).error?.code : undefined;
    const name = this.spot.workspace;
    const ws = name === undefined ? undefined : model.workspaces.get(name)!;
    const expected = name === undefined ? [404, 'invalid_workspace_name'] : name === 'default' ? [409, 'default_workspace'] : ws?.exists === true ? [200, undefined] : [404, 'workspace_not_found'];
    if (answer.status !== expected[0] || code !== expected[1]) fail(real, `DELETE ${path}: expected ${expected.join(' ')}, got ${answer.status} ${answer.body.slice(0, 300)}`);
    if (ws !== undefined && answer.status === 200) {
      ws.trades.clear();
      ws.exists = false;
    }
  }
  toString = () => `delete(${label(this.spot)})`;
}

/**
 * A stop with a burst of creates in flight, then a start on the same folder and a comparison
 * with the model. `signal` is sent once `after` creates of the burst are acknowledged (at once
 * when 0 or when there is no burst): SIGTERM, a clean stop (exit 0), which answers the requests
 * under way first; or SIGKILL. Answered creates are acknowledged; those not answered may or may
 * not be there, but if there, once and in their own workspace.
 */
class Restart implements Cmd {
  constructor(
    readonly signal: 'SIGTERM' | 'SIGKILL',
    readonly spots: readonly Spot[],
    readonly after: number,
  ) {}
  check = () => true;
  async run(model: Model, real: Real): Promise<void> {
    const { child } = real.proc;
    let acknowledged = 0;
    let signalled = false;
    const stop = () => {
      if (signalled) return;
      signalled = true;
      child.kill(this.signal);
    };
    const sent = this.spots.map(async (spot) => {
      const order = nextOrder();
      const ws = spot.workspace === undefined ? undefined : model.workspaces.get(spot.workspace)!;
      // Unsure until answered: the model allows it (once, here) until the restart settles it.
      if (ws !== undefined) {
        ws.trades.set(order, { order, id: undefined, state: 'created', sure: false });
        if (ws.exists === false) ws.exists = 'maybe';
      }
      const answer = await send(real.port, 'POST', `${spot.prefix}/api/v1/trades/deposit/create`, createBody(order), { 'X-Auth': DEMO.token });
      if (answer === undefined) return;
      acknowledge(model, real, spot, order, answer, signalled && this.signal === 'SIGTERM');
      if (answer.status === 201 && ++acknowledged >= this.after) stop();
    });
    if (this.after === 0 || this.spots.length === 0) stop();
    // Every create has its answer or its error (the connection closed, or died with the process).
    const outcomes = await Promise.allSettled(sent);
    stop();
    const code = await real.proc.exited;
    for (const outcome of outcomes) if (outcome.status === 'rejected') throw outcome.reason;
    if (this.signal === 'SIGTERM' && code !== 0) fail(real, `the clean stop exited with ${code}`);
    await real.restart();
    await verify(model, real, `after ${this.signal === 'SIGTERM' ? 'a clean stop' : 'kill -9'} and a restart (start ${real.starts})`);
  }
  toString = () => {
    const what = this.signal === 'SIGTERM' ? 'stop' : 'kill -9';
    return this.spots.length === 0 ? `${what}+restart` : `${what}(when ${this.after} of create(${this.spots.map(label).join(', ')}) acknowledged)+restart`;
  };
}

export interface CommandsOptions {
  /** Most creates in one burst. */
  burst: number;
  maxCommands: number;
  replayPath?: string;
}

/** The command arbitrary: creates weigh most, then the stops and kills that the model is about. */
export function crashOrderCommands(options: CommandsOptions) {
  // Hostile and refused names come up, but less often than the ordinary ones.
  const spot = fc.oneof({ arbitrary: fc.constantFrom(...SPOTS.slice(0, 5)), weight: 3 }, { arbitrary: fc.constantFrom(...SPOTS.slice(5)), weight: 2 });
  const spots = (min: number) => fc.array(spot, { minLength: min, maxLength: options.burst });
  const commands: Array<fc.Arbitrary<Cmd>> = [
    fc.oneof(
      { arbitrary: spots(1).map((list) => new Create(list)), weight: 6 },
      {
        arbitrary: fc
          .tuple(spot, fc.nat(50), fc.constantFrom('confirmed', 'canceled', 'expired') as fc.Arbitrary<'confirmed' | 'canceled' | 'expired'>)
          .map(([s, i, state]) => new Transition(s, i, state)),
        weight: 3,
      },
      { arbitrary: spot.map((s) => new Delete(s)), weight: 2 },
      {
        // `after` is drawn on its own, so that the burst and it shrink independently.
        arbitrary: fc
          .tuple(fc.constantFrom('SIGTERM', 'SIGKILL') as fc.Arbitrary<'SIGTERM' | 'SIGKILL'>, spots(0), fc.nat(options.burst))
          .map(([signal, list, after]) => new Restart(signal, list, Math.min(after, list.length))),
        weight: 4,
      },
    ),
  ];
  return fc.commands(commands, { maxCommands: options.maxCommands, size: 'max', ...(options.replayPath ? { replayPath: options.replayPath } : {}) });
}

export interface FuzzOptions {
  launch: Launch;
  runs: number;
  maxCommands: number;
  burst: number;
  /** After the first failure, how long shrinking may go on before the smallest sequence found so far is reported. */
  shrinkMs: number;
}

/**
 * Runs `runs` random sequences against real processes; a failure reports fast-check's seed, the
 * path to replay it and the shrunk sequence (CRASH_FUZZ_SEED, CRASH_FUZZ_PATH and CRASH_FUZZ_REPLAY replay one).
 */
export async function fuzzCrashOrder(options: FuzzOptions): Promise<void> {
  const seed = process.env['CRASH_FUZZ_SEED'] ? Number(process.env['CRASH_FUZZ_SEED']) : undefined;
  const path = process.env['CRASH_FUZZ_PATH'];
  const replayPath = process.env['CRASH_FUZZ_REPLAY'];
  let failedAt: number | undefined;
  const property = fc.asyncProperty(crashOrderCommands({ burst: options.burst, maxCommands: options.maxCommands, ...(replayPath ? { replayPath } : {}) }), async (commands) => {
    // Shrinking started long enough ago: the remaining candidates pass unrun, and the smallest failing sequence so far is reported.
    if (failedAt !== undefined && Date.now() - failedAt > options.shrinkMs) return;
    const real = await Real.start(options.launch);
    try {
      const model = initialModel();
      await fc.asyncModelRun(() => ({ model, real }), commands);
      await verify(model, real, 'at the end');
    } catch (error) {
      failedAt ??= Date.now();
      throw error;
    } finally {
      await real.dispose();
    }
  });
  await fc.assert(property, { numRuns: options.runs, ...(seed !== undefined ? { seed } : {}), ...(path ? { path, endOnFailure: true } : {}) });
}
