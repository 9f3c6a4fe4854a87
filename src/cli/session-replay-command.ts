import { readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { createInterface } from 'node:readline/promises';
import { STATE_FORMAT, STATE_VERSION } from '../sessions/state-document.js';
import { loadFixtures } from '../merchants/fixtures.js';
import type { Profile } from '../profile/profile-schema.js';
import { signRequest } from '../profile/sign-request.js';
import { compareAnswers, Substitutions } from '../sessions/compare-answers.js';
import { MASK, maskText } from '../sessions/mask-secrets.js';
import { readSessionHar } from '../sessions/read-session-har.js';
import { planReceiverReplay } from '../sessions/receiver-replay.js';
import type { SessionHar } from '../sessions/session-har.js';
import { workspaceNameProblem } from '../workspaces/workspace-name.js';

export interface SessionReplayOptions {
  toReceiver?: string;
  toSandbox?: string;
  /** --to-receiver: the recorded gaps between attempts divided by this (default: none, as fast as answered). */
  speed?: string;
  /** --to-receiver: wait for Enter before each attempt. */
  step?: boolean;
  /** --to-receiver: `<secret>` for every merchant, or `<merchant id>=<secret>`, repeatable. */
  secret?: string[];
  /** --to-receiver: fixtures holding the merchants' secrets (default: the bundled ones). */
  fixtures?: string;
  /** --to-sandbox: the new workspace (default replay-<recorded name>-<time>). */
  workspace?: string;
  adminToken?: string;
}

/** What a replay found: how many entries it replayed, and the first difference, if any. */
export interface ReplayResult {
  replayed: number;
  skipped: number;
  difference?: string;
}

/** A replay that could not go on (the file, the target, an unreachable receiver): exit 2. */
export class ReplayStopped extends Error {
  override name = 'ReplayStopped';
}

type Write = (text: string) => void;

/**
 * `deposit-sandbox session replay <file.har>`: sends a recorded session again, to the merchant's
 * receiver (its callbacks, byte for byte) or to a fresh workspace of a sandbox (the merchant's
 * requests), and reports the first answer that differs from the recording. Resolves with what it
 * found; throws ReplayStopped when it could not replay.
 */
export async function sessionReplayCommand(file: string, options: SessionReplayOptions, write: Write = (text) => process.stdout.write(text)): Promise<ReplayResult> {
  if ((options.toReceiver === undefined) === (options.toSandbox === undefined)) {
    throw new ReplayStopped('Say where to replay: --to-receiver <url> (the recorded callbacks, to your receiver) or --to-sandbox <url> (the recorded requests, to a fresh workspace of a sandbox).');
  }
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ReplayStopped(`${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).`);
  }
  const read = readSessionHar(text, file);
  if (!read.ok) throw new ReplayStopped(read.message);
  const { har } = read;
  if (har.log._sandbox.dropped > 0) write(`Note: the recording lost its first ${har.log._sandbox.dropped} entries to --record-limit; the replay starts after them.\n`);
  return options.toReceiver !== undefined ? replayToReceiver(har, options.toReceiver, options, write) : replayToSandbox(har, options.toSandbox as string, options, write);
}

/** A URL given on the command line, or a ReplayStopped that says which flag is wrong. */
function urlOption(flag: string, value: string): URL {
  if (!URL.canParse(value) || !/^https?:$/.test(new URL(value).protocol)) throw new ReplayStopped(`${flag} must be an http(s) URL such as http://127.0.0.1:3000; got ${JSON.stringify(value)}.`);
  return new URL(value);
}

/** Each merchant's secret: --secret values first, then the fixtures'. */
function secrets(options: SessionReplayOptions): (merchant: string) => string | undefined {
  const byId = new Map<string, string>();
  let any: string | undefined;
  for (const given of options.secret ?? []) {
    const at = given.indexOf('=');
    if (at > 0 && /^[0-9a-f-]{8,}$/i.test(given.slice(0, at))) byId.set(given.slice(0, at).toLowerCase(), given.slice(at + 1));
    else any = given;
  }
  const fixtures = loadFixtures(options.fixtures);
  return (merchant) => byId.get(merchant.toLowerCase()) ?? any ?? fixtures.merchants.find((m) => m.id.toLowerCase() === merchant.toLowerCase())?.secret;
}

interface Answer {
  status: number;
  body: string;
  headers: Record<string, string | string[] | undefined>;
}

/** One HTTP request with exactly these headers (order and case) and body; rejects with Node's error when no answer came. */
function send(url: string, method: string, headers: ReadonlyArray<readonly [string, string]>, body: string | undefined, timeoutMs = 30_000): Promise<Answer> {
  const target = new URL(url);
  const client = target.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    // Headers given as a list go out as they are, in order: Host, which Node adds to an object of headers, comes first here.
    const flat = ['Host', target.host, ...headers.flat()];
    const req = client.request(target, { method, headers: flat, timeout: timeoutMs }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), headers: res.headers }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(Object.assign(new Error(`no answer within ${timeoutMs / 1000} s`), { code: 'ETIMEDOUT' })));
    req.on('error', reject);
    req.end(body);
  });
}

const unreachable = (what: string, url: string, error: unknown) =>
  new ReplayStopped(`${what} at ${url} is unreachable (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); the replay stopped. Start it, or point the replay at where it listens.`);

async function replayToReceiver(har: SessionHar, receiver: string, options: SessionReplayOptions, write: Write): Promise<ReplayResult> {
  const plan = planReceiverReplay(har, urlOption('--to-receiver', receiver), secrets(options));
  if (!plan.ok) throw new ReplayStopped(plan.message);
  const speed = options.speed === undefined ? undefined : Number(options.speed);
  if (speed !== undefined && !(speed > 0)) throw new ReplayStopped(`--speed must be a number above 0 (2 plays the recorded gaps twice as fast); got ${JSON.stringify(options.speed)}.`);
  const prompt = options.step ? createInterface({ input: process.stdin, output: process.stderr }) : undefined;
  let replayed = 0;
  try {
    for (const [i, callback] of plan.callbacks.entries()) {
      const previous = plan.callbacks[i - 1];
      if (speed !== undefined && previous !== undefined) {
        const gap = (callback.sentAt - previous.sentAt) / speed;
        if (gap > 0) await new Promise((resolve) => setTimeout(resolve, gap));
      }
      if (prompt) await prompt.question(`Enter sends entry ${callback.index}: event ${callback.event}, attempt ${callback.attempt} (${callback.kind}) to ${callback.url} `);
      let answer: Answer;
      try {
        answer = await send(callback.url, 'POST', callback.headers, callback.body);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ECONNREFUSED' || replayed === 0) throw unreachable('The receiver', callback.url, error);
        answer = { status: 0, body: '', headers: {} };
      }
      replayed++;
      const ok = answer.status >= 200 && answer.status < 300;
      const { recorded } = callback;
      const why =
        answer.status !== recorded.status
          ? `answered ${answer.status || 'nothing'} where the recording has ${recorded.status || 'no answer'}${ok && !recorded.acknowledged ? ' (a 2xx where the recording had a failure)' : ''}`
          : undefined;
      if (why !== undefined) {
        const difference = `entry ${callback.index}, event ${callback.event}, attempt ${callback.attempt} (${callback.kind}): the receiver ${why}`;
        write(`Replayed ${replayed} of ${plan.callbacks.length} callback attempts to ${receiver}; the first difference is at ${difference}.\n`);
        return { replayed, skipped: 0, difference };
      }
    }
  } finally {
    prompt?.close();
  }
  write(`Replayed ${replayed} callback attempts to ${receiver}, byte for byte (bodies, signatures, event ids, attempts): every answer is as recorded.\n`);
  return { replayed, skipped: 0 };
}

/** Headers a replayed request leaves to the connection. */
const CONNECTION_HEADERS = new Set(['host', 'content-length', 'connection', 'transfer-encoding', 'keep-alive']);

/** Requests a replay to a sandbox does not send, and why: they reach beyond the workspace. */
function notReplayed(method: string, rest: string): string | undefined {
  if (rest.startsWith('/_sandbox/workspaces')) return 'lists every workspace of the server';
  if (rest === '/_sandbox/fork') return 'makes another workspace';
  if (method === 'DELETE' && (rest === '/_sandbox' || rest === '/_sandbox/')) return 'removes the workspace';
  return undefined;
}

/** Answers that say something of the server or the moment, not of the workspace: their status is compared, not their body. */
const STATUS_ONLY = /^\/_sandbox\/(health|version|session\.har)|^\/pay\//;

async function replayToSandbox(har: SessionHar, sandbox: string, options: SessionReplayOptions, write: Write): Promise<ReplayResult> {
  const root = urlOption('--to-sandbox', sandbox).href.replace(/\/+$/, '');
  const info = har.log._sandbox;
  const name = options.workspace ?? `replay-${info.workspace}-${Date.now().toString(36)}`.slice(0, 64);
  const problem = workspaceNameProblem(name);
  if (problem !== undefined) throw new ReplayStopped(`--workspace: ${problem.replace(' in the path', '')}`);
  const base = `${root}/w/${name}`;
  const admin: Array<readonly [string, string]> = options.adminToken ? [['Authorization', `Bearer ${options.adminToken}`]] : [];
  const json = (method: string, url: string, body?: unknown) =>
    send(
      url,
      method,
      [...admin, ['Accept', 'application/json'], ...(body === undefined ? [] : [['Content-Type', 'application/json'] as const])],
      body === undefined ? undefined : JSON.stringify(body),
    ).catch((error: unknown) => {
      throw unreachable('The sandbox', root, error);
    });

  const listed = await json('GET', `${root}/_sandbox/workspaces`);
  if (listed.status !== 200)
    throw new ReplayStopped(`${root} answered ${listed.status} to GET /_sandbox/workspaces: is it a deposit-sandbox${options.adminToken ? '' : ' (with --admin-token, pass it)'}?`);
  const names = (JSON.parse(listed.body) as { workspaces: Array<{ name: string }> }).workspaces.map((w) => w.name);
  if (names.includes(name))
    throw new ReplayStopped(`The workspace ${name} exists already on ${root}: a replay needs a fresh one. Pick another --workspace, or remove it with DELETE /w/${name}/_sandbox.`);
  // The fresh workspace starts at the recording's sandbox time.
  const start = { format: STATE_FORMAT, version: STATE_VERSION, workspace: name, exported_at: new Date().toISOString(), clock: { mode: info.clock.mode, now: info.clock.start } };
  const made = await json('PUT', `${base}/_sandbox/state`, { ...start, profile: { source: 'server', name: '' }, scenarios: null, merchants: [], trades: [], callbacks: [], jobs: [] });
  if (made.status !== 200) throw new ReplayStopped(`The fresh workspace ${name} could not be set to the recording's start (${made.status}: ${made.body.slice(0, 200)}).`);

  const merchants = new Map<string, { token: string; secret: string }>();
  const readMerchants = async () => {
    const answer = JSON.parse((await json('GET', `${base}/_sandbox/merchants`)).body) as { merchants: Array<{ id: string; token?: string; secret?: string }> };
    for (const m of answer.merchants) if (m.token && m.secret) merchants.set(m.id.toLowerCase(), { token: m.token, secret: m.secret });
  };
  let profile: Profile;
  const readProfile = async () => {
    profile = (JSON.parse((await json('GET', `${base}/_sandbox/profile`)).body) as { profile: Profile }).profile;
  };
  await readMerchants();
  await readProfile();

  const subs = new Substitutions();
  const recordedRoot = new URL(har.log.entries.find((e) => e._sandbox.direction === 'inbound')?.request.url ?? root).origin;
  const recordedPrefix = info.workspace === 'default' ? '' : `/w/${info.workspace}`;
  subs.pair(`${recordedRoot}${recordedPrefix}`, base);
  const realClock = info.clock.mode === 'real';
  let replayed = 0;
  let skipped = 0;
  const inbound = har.log.entries.map((entry, i) => ({ entry, index: i + 1 })).filter(({ entry }) => entry._sandbox.direction === 'inbound');
  for (const { entry, index } of inbound) {
    const recordedUrl = new URL(entry.request.url);
    const path = recordedUrl.pathname + recordedUrl.search;
    const rest = path.startsWith(`${recordedPrefix}/`) ? path.slice(recordedPrefix.length) : path;
    const method = entry.request.method;
    if (notReplayed(method, rest.split('?')[0] ?? rest) !== undefined || (entry._sandbox.direction === 'inbound' && entry._sandbox.truncated)) {
      skipped++;
      continue;
    }
    const url = `${base}${subs.toLive(rest)}`;
    let body = entry.request.postData === undefined ? undefined : subs.toLive(entry.request.postData.text);
    // A merchant added with its token or secret given: the sandbox makes new ones, compared masked.
    if (body !== undefined && rest === '/_sandbox/merchants' && method === 'POST') body = body.replace(/,?\s*"(token|secret)"\s*:\s*"\*\*\*"/g, '').replace(/\{\s*,/, '{');
    const headers = liveHeaders(entry, rest, body, merchants, () => profile, admin);
    let answer: Answer;
    try {
      answer = await send(url, method, headers, body);
    } catch (error) {
      // An answer lost on purpose (the lost-answer scenario) is recorded as status 0.
      if (entry.response.status !== 0) throw unreachable('The sandbox', root, error);
      answer = { status: 0, body: '', headers: {} };
    }
    replayed++;
    if (answer.status === 201 && /\/api\/v1\/trades\/deposit\/(create|build)$/.test(rest)) subs.learnTrade(entry.response.content.text, answer.body);
    if (answer.status === 201 && rest === '/_sandbox/merchants') await readMerchantAnswer(answer.body, merchants);
    if (/^\/_sandbox\/profile/.test(rest) && method !== 'GET') await readProfile();
    const known = [...merchants.values()].flatMap((m) => [m.token, m.secret]);
    const liveBody = maskText(subs.toRecorded(answer.body), known, rest.startsWith('/_sandbox/'));
    const difference = compareAnswers(
      { status: entry.response.status, body: entry.response.content.text },
      { status: answer.status, body: liveBody },
      { realClock, drawsDiffer: subs.drawsDiffer, bodies: !STATUS_ONLY.test(rest) },
    );
    if (difference !== undefined) {
      const where = `entry ${index}, ${method} ${path}`;
      write(`Replayed ${replayed} of ${inbound.length} requests to workspace ${name} of ${root}; the first answer that differs from the recording is ${where}: ${difference}.\n`);
      return { replayed, skipped, difference: `${where}: ${difference}` };
    }
  }
  write(
    `Replayed ${replayed} requests to workspace ${name} of ${root}${skipped > 0 ? ` (${skipped} not replayed: they reach beyond the workspace, or a body was cut)` : ''}: every answer is as recorded.\n`,
  );
  return { replayed, skipped };
}

/** A new merchant's token and secret, answered once by POST /_sandbox/merchants. */
async function readMerchantAnswer(body: string, merchants: Map<string, { token: string; secret: string }>): Promise<void> {
  const { merchant } = JSON.parse(body) as { merchant: { id: string; token: string; secret: string } };
  merchants.set(merchant.id.toLowerCase(), { token: merchant.token, secret: merchant.secret });
}

/**
 * A recorded request's headers for the replay: those the connection sets left out, each masked
 * credential made again: X-Auth / X-Token the merchant's token or a signature under the
 * workspace's profile (as the recording says it held), a profile's own signature header signed
 * again, Authorization the --admin-token.
 */
function liveHeaders(
  entry: SessionHar['log']['entries'][number],
  rest: string,
  body: string | undefined,
  merchants: ReadonlyMap<string, { token: string; secret: string }>,
  profile: () => Profile,
  admin: ReadonlyArray<readonly [string, string]>,
): Array<readonly [string, string]> {
  const info = entry._sandbox;
  const endpoint = /\/api\/v1\/trades\/deposit\/(create|build)$/.exec(rest)?.[1] ?? (/^\/api\/v1\/trades\/[^/]+\/[^/?]+/.test(rest) ? 'get' : undefined);
  let values: Record<string, unknown> = {};
  if (endpoint === 'get') {
    const [merchant, uuid] = rest.split('?')[0]?.split('/').slice(4) ?? [];
    values = { merchant, uuid };
  } else if (body !== undefined) {
    try {
      values = JSON.parse(body) as Record<string, unknown>;
    } catch {}
  }
  const merchant = typeof values['merchant'] === 'string' ? merchants.get(values['merchant'].toLowerCase()) : undefined;
  const out: Array<readonly [string, string]> = [];
  for (const { name, value } of entry.request.headers) {
    const lower = name.toLowerCase();
    if (CONNECTION_HEADERS.has(lower)) continue;
    if (value !== MASK) {
      out.push([name, value]);
      continue;
    }
    if (lower === 'authorization') {
      out.push(...admin);
      continue;
    }
    if (merchant === undefined || endpoint === undefined || info.direction !== 'inbound') {
      out.push([name, value]);
      continue;
    }
    const token = (lower === 'x-auth' || lower === 'x-token') && info.auth === 'token';
    out.push([name, token ? merchant.token : signRequest(profile(), merchant.secret, endpoint as 'create' | 'build' | 'get', values)]);
  }
  return out;
}
