/**
 * Paths no client should send (bad percent-encodings, dot segments as a workspace name) are
 * refused as 4xx, never a 500, with or without a workspace prefix.
 */
import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../src/programmatic/start-sandbox.js';
import { DEMO, errorOf, makeSandbox, p2pBody, type TestSandbox } from '../support.js';

let t: TestSandbox;
afterEach(async () => {
  await t?.close();
});

describe('hostile paths', () => {
  it('a malformed percent-escape in a trade path is a 4xx in the error envelope, in default and in a workspace', async () => {
    t = await makeSandbox();
    const paths = ['/api/v1/trades/%FF/abc', '/w/x/api/v1/trades/%FF/abc', `/api/v1/trades/%FF/${DEMO.id}`, '/api/v1/trades/%E0%A4%A/abc', '/w/x/_sandbox/trades/%FF', '/w/%FF/api/v1/trades/a/b'];
    for (const path of paths) {
      const res = await t.get(path);
      expect(res.status, path).toBeGreaterThanOrEqual(400);
      expect(res.status, path).toBeLessThan(500);
      expect((await errorOf(res)).code, path).not.toBe('internal_error');
    }
  });
});

/**
 * One request over node:http with `path` sent exactly as written: fetch() and new URL() resolve
 * `%2e%2e` like `..` before a byte leaves the client, so only a raw request target shows what
 * the server does with it.
 */
function rawRequest(url: string, method: string, path: string, body?: string): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { 'X-Auth': DEMO.token, ...(body !== undefined ? { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)) } : {}) };
    const req = httpRequest({ host: hostname, port: Number(port), method, path, headers, agent: false }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (chunk: Buffer) => parts.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(parts).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('dot segments as the workspace name', () => {
  let running: RunningSandbox | undefined;
  afterEach(async () => {
    await running?.close();
    running = undefined;
  });

  // The URL parser reads each of these as `.` or `..` and would resolve it away before routing:
  // `/w/%2e%2e/api/...` would be `/api/...`, a request of the default workspace.
  it.each(['..', '%2e%2e', '%2E%2E', '.%2e', '%2e.', '.%2E', '.', '%2e', '%2E'])('/w/%s/... is refused 404 invalid_workspace_name over a real socket, and nothing is stored', async (segment) => {
    running = await startSandbox();
    const dots = segment.replace(/%2e/gi, '.');
    for (const tail of ['/api/v1/trades/deposit/create', '/w/victim/api/v1/trades/deposit/create']) {
      const created = await rawRequest(running.url, 'POST', `/w/${segment}${tail}`, JSON.stringify(p2pBody()));
      expect(created.status, `/w/${segment}${tail}`).toBe(404);
      expect(JSON.parse(created.body)).toMatchObject({
        error: { status: 404, code: 'invalid_workspace_name', message: expect.stringContaining(`The workspace name ${JSON.stringify(dots)} in the path is not allowed.`) },
      });
    }
    // The router reads `/%77/` as `/w/`, so that spelling of the prefix is refused the same way.
    expect((await rawRequest(running.url, 'POST', `/%77/${segment}/api/v1/trades/deposit/create`, JSON.stringify(p2pBody()))).status).toBe(404);
    const listed = await rawRequest(running.url, 'GET', `/w/${segment}/_sandbox/trades`);
    expect(JSON.parse(listed.body)).toMatchObject({ error: { code: 'invalid_workspace_name' } });
    expect((await running.admin.trades()).total).toBe(0);
    expect((await running.workspace('victim').admin.trades()).total).toBe(0);
  });

  it('a name that holds dots among other characters is an ordinary workspace', async () => {
    running = await startSandbox();
    for (const segment of ['a..b', 'a%2e%2eb', 'v1.%2e']) {
      const created = await rawRequest(running.url, 'POST', `/w/${segment}/api/v1/trades/deposit/create`, JSON.stringify(p2pBody()));
      expect(created.status, segment).toBe(201);
    }
    expect((await running.admin.trades()).total).toBe(0);
  });
});
