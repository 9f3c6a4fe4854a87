/**
 * The container image as a merchant's CI uses it: built from the Dockerfile with podman,
 * started with --network host on a free loopback port, reached from this process (the
 * "host"): health, a trade created with a signature, paid on the page, a signed callback
 * to a receiver here, SIGTERM, a second container on the same volume reading it back, and that
 * container killed and started again.
 *
 * `npm run test:container`. Without podman it is skipped with a message, except with
 * CI=true, where it fails. The base image is localhost/node-base:20 made from this
 * machine's Node (no registry here); DEPOSIT_SANDBOX_NODE_IMAGE=node:20-slim uses another.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, request, type IncomingHttpHeaders } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO } from '../merchants.js';
import { baseImage, buildImage, freePort, imageSize, podman, podmanMissing, podmanOk, untilHealthy } from './podman.js';

const missing = podmanMissing();
const ci = process.env['CI'] === 'true';
if (missing && !ci) console.warn(`container test skipped: ${missing}. With CI=true it runs (and fails without podman).`);

const RUN_ID = `${process.pid}-${Date.now().toString(36)}`;
const TAG = `localhost/deposit-sandbox-test:${RUN_ID}`;
const VOLUME = `deposit-sandbox-test-${RUN_ID}`;
const containers: string[] = [];
let image: { label: string; remove(): Promise<void> } | undefined;
let base = '';

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** One HTTP request to 127.0.0.1:`port` with the Host header the caller chooses. */
function http(port: number, path: string, options: { method?: string; host?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method: options.method ?? 'GET', headers: { Host: options.host ?? `127.0.0.1:${port}`, ...options.headers }, timeout: 10_000 }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (text: string) => (body += text));
      res.once('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.once('timeout', () => req.destroy(new Error(`${path}: no answer within 10 s`)));
    req.once('error', reject);
    req.end(options.body);
  });
}

const hmac = (text: string) => createHmac('sha256', DEMO.secret).update(text).digest('hex');

/** A callback receiver on the host: checks X-Signature, keeps what it accepted. */
async function startReceiver() {
  const accepted: Array<Record<string, unknown>> = [];
  const waiters: Array<() => void> = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.once('end', () => {
      const raw = Buffer.concat(chunks);
      const expected = Buffer.from(hmac(raw.toString('utf8')));
      const given = Buffer.from(String(req.headers['x-signature'] ?? ''));
      if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
        res.writeHead(401).end();
        return;
      }
      accepted.push(JSON.parse(raw.toString('utf8')) as Record<string, unknown>);
      res.writeHead(204).end();
      for (const wake of waiters.splice(0)) wake();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  /** Resolves with the first accepted callback for `id` in `state` (bounded by `ms`). */
  const waitFor = (id: string, state: string, ms = 20_000) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no signed callback for ${id} in state ${state} within ${ms} ms; accepted: ${JSON.stringify(accepted)}`)), ms);
      const look = () => {
        const found = accepted.find((body) => body['id'] === id && body['state'] === state);
        if (!found) return void waiters.push(look);
        clearTimeout(timer);
        resolve(found);
      };
      look();
    });
  return { url: `http://127.0.0.1:${port}/callbacks/deposit`, waitFor, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** Starts a container of the test image on `port` (loopback only) with the test volume. */
async function runContainer(port: number, extraEnv: Record<string, string> = {}): Promise<string> {
  const env = { DEPOSIT_SANDBOX_HOST: '127.0.0.1', DEPOSIT_SANDBOX_PORT: String(port), ...extraEnv };
  const id = await podmanOk(['run', '-d', '--network', 'host', '-v', `${VOLUME}:/data`, ...Object.entries(env).flatMap(([k, v]) => ['-e', `${k}=${v}`]), TAG]);
  containers.push(id);
  return id;
}

/** Waits until the sandbox answers, then runs the image's own HEALTHCHECK command through podman. */
async function healthy(id: string, port: number) {
  await untilHealthy(`http://127.0.0.1:${port}`).catch(async (error: Error) => {
    throw new Error(`${error.message}\ncontainer log:\n${(await podman(['logs', id])).stderr}`);
  });
  const check = await podman(['healthcheck', 'run', id]);
  expect(check.code, check.stdout + check.stderr).toBe(0);
  expect(await podmanOk(['inspect', '--format', '{{.State.Health.Status}}', id])).toBe('healthy');
}

describe.skipIf(missing !== undefined && !ci)('the container image (podman)', () => {
  beforeAll(async () => {
    if (missing) throw new Error(`${missing}. The container test runs in CI (CI=true) and needs podman.`);
    base = await baseImage();
    image = await buildImage(TAG, base);
    await podmanOk(['volume', 'create', VOLUME]);
  });

  afterAll(async () => {
    if (missing) return;
    for (const id of containers) await podman(['rm', '--force', '--time', '0', id]);
    await podman(['volume', 'rm', '--force', VOLUME]);
    await image?.remove();
  });

  it('runs as the unprivileged user, keeps its store in the /data volume and declares port, health check and entry point', async () => {
    const config = JSON.parse(await podmanOk(['image', 'inspect', '--format', '{{json .Config}}', TAG])) as Record<string, unknown>;
    expect(config['User']).toBe('node');
    expect(Object.keys(config['ExposedPorts'] as object)).toEqual(['4242/tcp']);
    expect(Object.keys(config['Volumes'] as object)).toEqual(['/data']);
    expect(config['Env']).toEqual(expect.arrayContaining(['DEPOSIT_SANDBOX_IN_CONTAINER=1', 'DEPOSIT_SANDBOX_HOST=0.0.0.0', 'DEPOSIT_SANDBOX_PORT=4242', 'DEPOSIT_SANDBOX_DATA=/data']));
    // Kept because the image is built with --format docker (OCI images have no health check).
    const healthcheck = JSON.parse(await podmanOk(['image', 'inspect', '--format', '{{json .Config.Healthcheck}}', TAG])) as { Test: string[] };
    expect(healthcheck.Test).toEqual(['CMD', 'node', '/app/bin/deposit-sandbox.js', 'health', '--timeout', '5000']);
    const owner = await podmanOk(['run', '--rm', '--network', 'none', '--entrypoint', 'node', TAG, '-e', "console.log(process.getuid(), require('fs').statSync('/data').uid)"]);
    expect(owner).toBe('1000 1000');
    const version = await podmanOk(['run', '--rm', '--network', 'none', TAG, '--version']);
    expect(version).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('holds the bundled command line and its files only, well under 150 MB over its base, and the build keeps no untagged stage', async () => {
    const list = "const fs = require('fs'); console.log(fs.readdirSync('/app').sort().join(' ') + ' | ' + fs.readdirSync('/app/dist').sort().join(' '))";
    expect(await podmanOk(['run', '--rm', '--network', 'none', '--entrypoint', 'node', TAG, '-e', list])).toBe('bin dist fixtures package.json profiles scenarios | cli client');
    const overBase = (await imageSize(TAG)) - (await imageSize(base));
    expect(overBase).toBeGreaterThan(0);
    expect(overBase).toBeLessThan(150e6);
    // Built as docs/containers.md shows for podman (--layers=false): the build stage is not kept.
    expect(await podmanOk(['images', '--all', '--quiet', '--filter', `label=${image!.label}`, '--filter', 'dangling=true'])).toBe('');
  });

  it('serves the host: signed create, the page paid over HTTP, a signed callback to the host; SIGTERM saves, a new container reads it back and, killed and started again, says it took its own lock over', async () => {
    const port = await freePort();
    const receiver = await startReceiver();
    try {
      // A public URL whose host is not loopback: payment_data.url carries it, and the host guard admits it.
      const publicUrl = `http://payments.test:${port}`;
      const first = await runContainer(port, { DEPOSIT_SANDBOX_AUTH: 'signature', DEPOSIT_SANDBOX_PUBLIC_URL: publicUrl });
      await healthy(first, port);
      // Read on the host (podman logs), the paths the sandbox names are said to be the container's.
      const started = await podman(['logs', first]);
      expect(started.stdout + started.stderr).toContain('  store:    /data/db.json inside the container (0 trades)\n');
      const script = await http(port, '/assets/pay.js', { host: `payments.test:${port}` });
      expect(script.status).toBe(200);
      expect(script.headers['content-type']).toMatch(/^text\/javascript/);

      const order = `container-${RUN_ID}`;
      const body = { merchant: DEMO.id, order, amount_cents: 31250, amount_currency: 'RUB', type: 'any_bank', callback_url: receiver.url, return_url: 'https://shop.example/thanks' };
      const signature = hmac(`31250::RUB::${receiver.url}::::${DEMO.id}::${order}::https://shop.example/thanks::any_bank`);
      const created = await http(port, '/api/v1/trades/deposit/create', { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Auth': signature }, body: JSON.stringify(body) });
      expect(created.status, created.body).toBe(201);
      const trade = JSON.parse(created.body) as { id: string; state: string; payment_data: { url: string } };
      expect(trade.state).toBe('created');
      expect(trade.payment_data.url).toBe(`${publicUrl}/pay/${trade.id}`);

      // The payer's browser comes by the public URL's host; another name is refused (DNS rebinding).
      const page = await http(port, `/pay/${trade.id}`, { host: `payments.test:${port}` });
      expect(page.status).toBe(200);
      const action = /<form[^>]*action="(\/pay\/[^"]+\/pay)"/.exec(page.body)?.[1];
      expect(action).toBe(`/pay/${trade.id}/pay`);
      const stranger = await http(port, `/pay/${trade.id}`, { host: `evil.example:${port}` });
      expect(stranger.status).toBe(403);
      expect(stranger.body).toContain('host_not_allowed');

      const paid = await http(port, action!, { method: 'POST', host: `payments.test:${port}`, headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: '' });
      expect(paid.status, paid.body).toBe(303);
      expect(paid.headers.location).toBe('https://shop.example/thanks');
      const callback = await receiver.waitFor(trade.id, 'confirmed');
      expect(callback).toMatchObject({ id: trade.id, order, state: 'confirmed', amount_cents: 31250 });

      // The CI step of docs/containers.md: the report as JUnit, fetched while the container runs.
      const report = await http(port, '/_sandbox/report?format=junit');
      expect(report.status).toBe(200);
      expect(report.headers['content-type']).toBe('application/xml; charset=UTF-8');
      expect(report.body).toContain('<testsuites name="deposit-sandbox integration report"');

      const stopped = await podmanOk(['stop', '--time', '10', first]);
      expect(stopped).toBe(first);
      // 0 is the sandbox's own exit; a SIGKILL after the grace time would be 137.
      expect(await podmanOk(['inspect', '--format', '{{.State.ExitCode}}', first])).toBe('0');
      expect((await podman(['logs', first])).stdout).toContain('SIGTERM received');

      const second = await runContainer(port, { DEPOSIT_SANDBOX_AUTH: 'signature' });
      await healthy(second, port);
      const again = await http(port, `/api/v1/trades/${DEMO.id}/${trade.id}`, { headers: { 'X-Token': hmac(`${DEMO.id}::${trade.id}`) } });
      expect(again.status, again.body).toBe(200);
      expect(JSON.parse(again.body)).toMatchObject({ id: trade.id, order, state: 'confirmed', payment_data: { url: `http://127.0.0.1:${port}/pay/${trade.id}` } });

      // Killed (its lock left behind) and started again: process 1 again, it says whose lock it took.
      await podmanOk(['kill', second]);
      expect(await podmanOk(['wait', second])).toBe('137');
      await podmanOk(['start', second]);
      await healthy(second, port);
      const restarted = await podman(['logs', second]);
      expect(restarted.stdout + restarted.stderr).toContain(
        "took over the lock on the data folder /data left by the sandbox's previous run in this container (or in an earlier container on this folder: a container runs the sandbox as process 1 each time), which is no longer running.",
      );
      await podmanOk(['stop', '--time', '10', second]);
      expect(await podmanOk(['inspect', '--format', '{{.State.ExitCode}}', second])).toBe('0');
    } finally {
      await receiver.close();
    }
  });
});
