import { connect } from 'node:net';
import { createApp } from '../src/app.js';
import { sign, stringToSign, type SignedEndpoint } from '../src/auth/signature.js';
import { refusalError } from '../src/http/refusal-error.js';
import type { ErrorEnvelope } from '../src/http/errors.js';
import { Refusal } from '../src/refusals/refusal.js';
import { conformanceError } from './openapi-conformance.js';
import type { Sandbox } from '../src/sandbox.js';
import { createServer, type Server, type ServerSettings } from '../src/server/server.js';
import type { Logger } from '../src/log/logger.js';
import type { SandboxOptionsInput } from '../src/config/options.js';
import { DEMO } from './merchants.js';

export { DEMO, SECOND } from './merchants.js';

let orders = 0;
/** A unique order id for this test process. */
export const nextOrder = (prefix = 'order') => `${prefix}-${process.pid}-${++orders}`;

/** A valid P2P create body for the demo merchant; override any field. */
export function p2pBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { merchant: DEMO.id, order: nextOrder(), amount_cents: 31250, amount_currency: 'RUB', type: 'any_bank', ...overrides };
}

/** A valid ecom build body for the demo merchant; override any field. */
export function ecomBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { merchant: DEMO.id, order: nextOrder(), amount_cents: 31250, amount_currency: 'RUB', type: 'ecom', ...overrides };
}

export interface TestSandbox {
  /** The workspace default of `server`. */
  sandbox: Sandbox;
  server: Server;
  app: ReturnType<typeof createApp>;
  /** POST a JSON body (X-Auth: demo token unless headers say otherwise). */
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<Response>;
  /** GET with X-Token: demo token unless headers say otherwise. */
  get(path: string, headers?: Record<string, string>): Promise<Response>;
  /** Any method, with a JSON body when one is given (a string as it is): the admin API's requests. */
  call(method: string, path: string, body?: unknown): Promise<Response>;
  close(): Promise<void>;
}

/** An in-memory sandbox and its Hono app, driven with app.request() (no port). */
export async function makeSandbox(options: SandboxOptionsInput = {}, settings: ServerSettings = {}): Promise<TestSandbox> {
  return testSandbox(await createServer({ inMemory: true, ...options }, settings));
}

/** A server made elsewhere (a data folder opened again, say), driven as makeSandbox's. */
export function testSandbox(server: Server): TestSandbox {
  const sandbox = server.root;
  const app = checkedApp(server);
  return {
    sandbox,
    server,
    app,
    post: (path, body, headers = {}) =>
      Promise.resolve(
        app.request(path, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'X-Auth': DEMO.token, ...headers },
          body: typeof body === 'string' ? body : JSON.stringify(body),
        }),
      ),
    get: (path, headers = {}) => Promise.resolve(app.request(path, { headers: { 'X-Token': DEMO.token, ...headers } })),
    call: (method, path, body) =>
      Promise.resolve(app.request(path, { method, headers: { 'Content-Type': 'application/json' }, ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }) })),
    close: () => server.close(),
  };
}

/** The eight keys of the Trade object, in the interface document's order. */
export const TRADE_KEYS = ['id', 'order', 'merchant', 'state', 'amount_cents', 'amount_currency', 'rate', 'payment_data'] as const;

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The `error` member of the sandbox's error envelope (asserts the envelope's shape). */
export async function errorOf(res: Response): Promise<ErrorEnvelope['error']> {
  const body = (await res.json()) as ErrorEnvelope;
  if (!body || typeof body !== 'object' || !body.error) throw new Error(`not an error envelope: ${JSON.stringify(body)}`);
  return body.error;
}

/** The hex signature a merchant sends for these values (lowercase). */
export function signatureOf(endpoint: SignedEndpoint, values: Readonly<Record<string, unknown>>, secret: string = DEMO.secret): string {
  return sign(secret, stringToSign(endpoint, values));
}

/**
 * Raw bytes to 127.0.0.1:`port` over TCP; resolves with everything the server answered
 * before the connection closed (or before `closeAfterMs`, when the test closes it).
 */
export function rawExchange(port: number, bytes: string | Buffer, closeAfterMs = 3_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(answer));
    socket.write(bytes);
    setTimeout(() => socket.destroy(), closeAfterMs).unref();
  });
}

/**
 * The value of a logic call that should succeed. A refusal is thrown as the error envelope
 * the HTTP layer would answer with, so a test can check its status and envelope.
 */
export function accepted<T>(result: T | Refusal): T {
  if (result instanceof Refusal) throw refusalError(result);
  return result;
}

/** Statuses whose answers carry no body (a Response with one cannot be made). */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/**
 * The app of a sandbox, whose every app.request() answer is checked against /openapi.json
 * (test/openapi-conformance.ts): an answer the document does not allow fails the test.
 */
export function checkedApp(server: Server): ReturnType<typeof createApp> {
  const app = createApp(server);
  const request = app.request.bind(app);
  app.request = (async (...args: Parameters<typeof request>) => {
    const res = await request(...args);
    // No HTTP answer at all (the lost-answer scenario): nothing for the document to describe.
    if (res.type === 'error') return res;
    const [input, init] = args;
    const target = input instanceof Request ? input.url : String(input);
    // The path as the app sees it: dot segments resolved, as a URL does (a leading // is a path here, not a host).
    const url = new URL(/^https?:/.test(target) ? target : `http://localhost${target.startsWith('/') ? '' : '/'}${target}`);
    // Percent-escapes of the path decoded as the router decodes them (`/%77/a` is `/w/a`), where they decode.
    let pathname = url.pathname;
    try {
      pathname = decodeURI(pathname);
    } catch {}
    const path = pathname + url.search;
    const method = init?.method ?? (input instanceof Request ? input.method : 'GET');
    // The body is read once, here, and the test gets an answer with the same bytes (cheaper than res.clone()'s two streams).
    const bytes = await res.arrayBuffer();
    const problem = conformanceError(method, path, res.status, res.headers.get('Content-Type'), new TextDecoder().decode(bytes));
    if (problem !== undefined) throw new Error(`The answer does not match /openapi.json: ${problem}`);
    return new Response(NULL_BODY.has(res.status) ? null : bytes, { status: res.status, statusText: res.statusText, headers: res.headers });
  }) as typeof app.request;
  return app;
}

/** A logger that keeps its lines, for tests to read (tests capture the logger, not process.stdout). */
export function capturingLogger(): Logger & { infos: string[]; warnings: string[] } {
  const infos: string[] = [];
  const warnings: string[] = [];
  return { infos, warnings, info: (line) => void infos.push(line), warn: (line) => void warnings.push(line) };
}

/** A request body the test sends in two parts: the request is under way until `finish()`. */
export function slowBody() {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const stream = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
    },
  });
  return {
    stream,
    finish(text: string) {
      controller.enqueue(new TextEncoder().encode(text));
      controller.close();
    },
  };
}
