/**
 * docs/getting-started.md as a reader uses it: every curl block is run with bash against a real
 * `deposit-sandbox` process (port 0, in memory), and its output is compared with what the page
 * shows after it (the other pages' bash blocks are run by docs-examples.test.ts).
 * The process runs the build in dist/ (`npm test` builds first; run `npm run build` before
 * running this file alone).
 */
import { execFile, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fences } from './docs/markdown.js';
import { DEMO, TRADE_KEYS, UUID_PATTERN } from './support.js';
import { shellEnv } from './sandbox-process.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(ROOT, 'bin', 'deposit-sandbox.js');
const PAGE = 'docs/getting-started.md';
const MARKDOWN = readFileSync(join(ROOT, PAGE), 'utf8');
const DOC_URL = 'http://127.0.0.1:4242';
const READY = /^deposit-sandbox listening on (http:\/\/127\.0\.0\.1:\d+)$/;

interface CurlExample {
  name: string;
  heading: string;
  code: string;
  /** The ```json block the page shows right after it (before the next bash block), if any. */
  documented: unknown;
}

/** The runnable examples: bash blocks that call the sandbox with curl, each with its documented answer. */
function curlExamples(): CurlExample[] {
  const blocks = fences(PAGE, MARKDOWN);
  const examples: CurlExample[] = [];
  const counts = new Map<string, number>();
  blocks.forEach((block, i) => {
    if (block.lang !== 'bash' || !/\bcurl\b/.test(block.code) || !block.code.includes(DOC_URL)) return;
    const next = blocks.slice(i + 1).find((b) => b.lang === 'bash' || b.lang === 'json');
    const n = (counts.get(block.heading) ?? 0) + 1;
    counts.set(block.heading, n);
    examples.push({
      name: `${block.heading} #${n}`,
      heading: block.heading,
      code: block.code,
      documented: next?.lang === 'json' ? (JSON.parse(next.code) as unknown) : undefined,
    });
  });
  return examples;
}

const EXAMPLES = curlExamples();

/** Runs a block with bash (`-u`: a variable the block does not set itself is an error). */
function bash(script: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('bash', ['--noprofile', '--norc', '-u', '-c', script], { cwd: ROOT, env: shellEnv(), timeout: 120_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr: stderr + (error && typeof error.code !== 'number' ? String(error) : '') });
    });
  });
}

let server: ChildProcessWithoutNullStreams | undefined;
let exited: Promise<number | null>;
let url: string;

beforeAll(async () => {
  const child = spawn(process.execPath, [BIN, '--port', '0', '--in-memory'], { cwd: ROOT, env: shellEnv(), stdio: 'pipe' });
  server = child;
  exited = new Promise((resolve) => child.once('close', (code) => resolve(code)));
  let out = '';
  let err = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const firstLine = await new Promise<string>((resolve, reject) => {
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const newline = out.indexOf('\n');
      if (newline >= 0) resolve(out.slice(0, newline));
    });
    void exited.then((code) => reject(new Error(`deposit-sandbox exited (${code}) before its ready line:\n${out}\n${err}`)));
  });
  const ready = READY.exec(firstLine);
  if (!ready) throw new Error(`not the ready line: ${JSON.stringify(firstLine)}`);
  url = ready[1]!;
}, 180_000);

afterAll(async () => {
  if (!server || server.exitCode !== null || server.signalCode !== null) return;
  server.kill('SIGTERM');
  const stopped = await Promise.race([exited.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 10_000))]);
  if (!stopped) server.kill('SIGKILL');
});

/** GET /_sandbox/trades/:id of the running process. */
async function stored(id: string): Promise<{ status: number; trade?: Record<string, unknown> }> {
  const res = await fetch(`${url}/_sandbox/trades/${id}`);
  const body = (await res.json()) as { trade?: Record<string, unknown> };
  return { status: res.status, trade: body.trade };
}

async function tradeCount(): Promise<number> {
  const res = await fetch(`${url}/_sandbox/trades?limit=1`);
  return ((await res.json()) as { total: number }).total;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isErrorEnvelope = (value: unknown): value is { error: { status: number; code: string } } => isObject(value) && isObject(value['error']);

describe('docs/getting-started.md: the curl examples', () => {
  it('has the token create, build and get blocks, the signature-variant blocks and the mistakes, each with curl', () => {
    const byHeading = (heading: string) => EXAMPLES.filter((e) => e.heading === heading);
    const token = byHeading('Token variant');
    expect(token.length).toBeGreaterThanOrEqual(3);
    expect(token.some((e) => e.code.includes('/api/v1/trades/deposit/create') && !e.code.includes('X-Token'))).toBe(true);
    expect(token.some((e) => e.code.includes('/api/v1/trades/deposit/build'))).toBe(true);
    expect(token.some((e) => e.code.includes("-H 'X-Token: sandbox-token-demo'"))).toBe(true);
    const signature = byHeading('Signature variant');
    expect(signature.length).toBeGreaterThanOrEqual(2);
    expect(signature.every((e) => e.code.includes('openssl dgst -sha256 -hmac'))).toBe(true);
    const mistakes = byHeading('What a mistake looks like');
    expect(mistakes.length).toBeGreaterThanOrEqual(2);
    expect(mistakes.every((e) => isErrorEnvelope(e.documented))).toBe(true);
  });

  it.each(EXAMPLES.map((example) => [example.name, example] as const))('%s: runs with bash and answers as the page shows', async (_name, example) => {
    const before = await tradeCount();
    const run = await bash(example.code.replaceAll(DOC_URL, url));
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);

    // curl -s prints the answer without a newline; a block may first echo what it kept (a trade id).
    const lines = run.stdout.split('\n').filter((line) => line !== '');
    expect(lines.length, run.stdout).toBeGreaterThan(0);
    const answer = JSON.parse(lines.at(-1)!) as unknown;
    const echoed = lines.slice(0, -1);

    if (isErrorEnvelope(example.documented)) {
      // A deliberate mistake: the documented status and code, the documented answer, nothing stored.
      expect(isErrorEnvelope(answer), run.stdout).toBe(true);
      const { status, code } = example.documented.error;
      expect((answer as { error: { status: number; code: string } }).error).toMatchObject({ status, code });
      expect(answer, 'the answer differs from docs/getting-started.md: update the page or the code').toEqual(example.documented);
      expect(await tradeCount()).toBe(before);
      return;
    }

    // A trade: exactly the eight keys of the document, in its order.
    expect(isObject(answer), run.stdout).toBe(true);
    const trade = answer as Record<string, unknown>;
    expect(Object.keys(trade)).toEqual([...TRADE_KEYS]);
    const id = trade['id'] as string;
    expect(id).toMatch(UUID_PATTERN);
    expect(trade).toMatchObject({ merchant: DEMO.id, amount_currency: 'RUB', rate: DEMO.rate });
    expect(['created', 'ecom']).toContain(trade['state']);
    const paymentData = trade['payment_data'] as Record<string, unknown>;
    expect(paymentData['url']).toBe(`${url}/pay/${id}`);

    // A block that kept the id of the trade it created and read it back echoed that id.
    for (const line of echoed) expect(line).toBe(id);
    const readsBack = example.code.includes('$TRADE_ID');
    if (readsBack) {
      expect(echoed).toEqual([id]);
      // Get answers requisites for every trade (ecom included).
      expect(Object.keys(paymentData)).toEqual(['name', 'number', 'bank_name', 'url']);
    }

    if (isObject(example.documented)) {
      // The same shape and values as the page's answer, except what is fresh on every run.
      const documented = example.documented;
      expect(Object.keys(trade)).toEqual(Object.keys(documented));
      expect(Object.keys(paymentData)).toEqual(Object.keys(documented['payment_data'] as Record<string, unknown>));
      for (const key of ['merchant', 'state', 'amount_cents', 'amount_currency', 'rate'] as const) expect(trade[key], key).toEqual(documented[key]);
      const prefix = (order: unknown) => String(order).replace(/-.*$/, '-');
      expect(prefix(trade['order'])).toBe(prefix(documented['order']));
      expect(trade['order']).toMatch(/^[a-z0-9]+-\d+-\d+$/);
    }

    // The trade really is stored, with what the block sent.
    const { status, trade: admin } = await stored(id);
    expect(status).toBe(200);
    expect(admin).toMatchObject({ id, order: trade['order'], state: trade['state'], amount_cents: trade['amount_cents'] });
    expect(await tradeCount()).toBe(before + 1);
    // An optional field the block sends (outside its comments) is stored; one it leaves out is not.
    const commands = example.code
      .split('\n')
      .filter((line) => !/^\s*#/.test(line))
      .join('\n');
    for (const [field, value] of [
      ['customer', 'customer-42'],
      ['callback_url', 'http://127.0.0.1:4243/callbacks/deposit'],
      ['return_url', 'https://shop.example/thanks'],
    ] as const) {
      expect(admin![field], field).toBe(commands.includes(field) ? value : null);
    }
  });
});
