// Podman for the container test and the bench: the invocation that works on machines without
// systemd or cgroup v2 delegation (runc, cgroupfs, no default ulimits), a local Node 20 base
// image when no registry is reachable, and builds that remove everything they made.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const HERE = fileURLToPath(new URL('.', import.meta.url));
const GLOBAL_FLAGS = ['--runtime', 'runc', '--cgroup-manager', 'cgroupfs'];
export const LOCAL_BASE = 'localhost/node-base:20';

const env = () => ({ ...process.env, CONTAINERS_CONF: process.env.CONTAINERS_CONF ?? `${HERE}containers.conf` });

/** Why podman cannot be used here, or undefined when `podman --version` works. */
export function podmanMissing() {
  const probe = spawnSync('podman', ['--version'], { encoding: 'utf8', env: env(), timeout: 20_000 });
  if (probe.error) return `podman is not installed (${probe.error.code ?? probe.error.message}); install it with: apt-get install -y podman runc busybox-static`;
  if (probe.status !== 0) return `podman --version failed: ${(probe.stderr || probe.stdout).trim().slice(0, 300)}`;
  return undefined;
}

/** Runs podman; resolves with its exit code and output (never rejects on a non-zero exit). */
export function podman(args, { timeoutMs = 120_000 } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn('podman', [...GLOBAL_FLAGS, ...args], { cwd: ROOT, env: env(), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (text) => (stdout += text));
    child.stderr.setEncoding('utf8').on('data', (text) => (stderr += text));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? (signal ? `killed by ${signal} after ${timeoutMs} ms` : null), stdout, stderr });
    });
  });
}

/** Runs podman and resolves with its trimmed stdout; rejects with its stderr on failure. */
export async function podmanOk(args, options) {
  const result = await podman(args, options);
  if (result.code !== 0) throw new Error(`podman ${args.join(' ')} failed (${result.code}):\n${(result.stderr || result.stdout).trim().slice(-2000)}`);
  return result.stdout.trim();
}

/**
 * The base image to build on: DEPOSIT_SANDBOX_NODE_IMAGE when set (e.g. node:20-slim where a
 * registry is reachable), else localhost/node-base:20, made from this machine's Node once.
 */
export async function baseImage() {
  const given = process.env.DEPOSIT_SANDBOX_NODE_IMAGE;
  if (given) return given;
  if ((await podman(['image', 'exists', LOCAL_BASE])).code === 0) return LOCAL_BASE;
  const script = `${HERE}make-node-base.sh`;
  if (!existsSync('/usr/bin/busybox')) throw new Error('busybox is missing: the local base image needs it (apt-get install -y busybox-static)');
  const made = spawnSync('bash', [script], { encoding: 'utf8', env: env(), timeout: 300_000 });
  if (made.status !== 0) throw new Error(`${script} failed:\n${(made.stderr || made.stdout || String(made.error)).slice(-2000)}`);
  return LOCAL_BASE;
}

/** This machine's npm cache folder (npm tells the scripts it runs; else it is asked), or undefined. */
function npmCache() {
  let dir = process.env.npm_config_cache;
  if (!dir) {
    const found = spawnSync('npm', ['config', 'get', 'cache'], { encoding: 'utf8', timeout: 30_000 });
    dir = found.status === 0 ? found.stdout.trim() : '';
  }
  return dir && existsSync(dir) ? dir : undefined;
}

/**
 * Builds the repository's Dockerfile as `tag` on `base`; resolves with the build's `label` and a
 * `remove()` that deletes the image and every image the build made (its stages and layers carry
 * the label, unique to this build, so a build running beside it is left alone).
 */
export async function buildImage(tag, base) {
  const label = `deposit-sandbox.test-build=${process.pid}-${Date.now().toString(36)}`;
  const remove = async () => {
    await podman(['rmi', '--force', tag]);
    const made = (await podmanOk(['images', '--all', '--quiet', '--filter', `label=${label}`])).split('\n').filter(Boolean);
    if (made.length > 0) await podman(['rmi', '--force', ...new Set(made)]);
  };
  // The build's `npm ci` reads the packages this machine's npm has already downloaded (the
  // image is the same; the build is faster than fetching every package again).
  const cache = npmCache();
  const mount = cache ? ['--volume', `${cache}:/root/.npm`] : [];
  // --layers=false: each stage is committed once, at its end, not once per instruction (those
  // layers would be removed with the image anyway; committing them was a fifth of the build's CPU
  // here), and the build stage is not kept as an untagged image (docs/containers.md). The image's
  // files and configuration are the same.
  const args = ['build', '--format', 'docker', '--isolation', 'chroot', '--network', 'host', '--layers=false', ...mount, '--label', label, '--build-arg', `NODE_IMAGE=${base}`, '-t', tag, '.'];
  const built = await podman(args, { timeoutMs: 600_000 });
  if (built.code !== 0) {
    await remove();
    throw new Error(`podman build failed (${built.code}):\n${(built.stderr + built.stdout).slice(-3000)}`);
  }
  return { tag, label, remove };
}

/** The image's size in bytes as podman reports it. */
export async function imageSize(name) {
  return Number(await podmanOk(['image', 'inspect', '--format', '{{.Size}}', name]));
}

/** A TCP port free on 127.0.0.1 right now. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * Resolves once `url`/_sandbox/health answers 200, polling every `everyMs` (bounded by
 * `timeoutMs`); rejects with the last error otherwise.
 */
export async function untilHealthy(url, { timeoutMs = 30_000, everyMs = 25 } = {}) {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer yet';
  while (Date.now() < deadline) {
    try {
      const res = await fetch(`${url}/_sandbox/health`, { signal: AbortSignal.timeout(1_000) });
      if (res.status === 200) return;
      last = `answered ${res.status}`;
    } catch (error) {
      last = error.cause?.code ?? error.message;
    }
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  throw new Error(`${url} was not healthy within ${timeoutMs} ms (${last})`);
}
