// The container image's figures for `npm run bench`: its size over the base image, and the
// time from `podman run` to a healthy sandbox. Skips (with the reason) where podman is missing.
// Alone: node bench/container.js [--starts N]
import { fileURLToPath } from 'node:url';
import { baseImage, buildImage, freePort, imageSize, podman, podmanMissing, podmanOk, untilHealthy } from '../test/container/podman.js';
import { median } from './lib/table.js';

/**
 * Builds the image, then starts it `starts` times (--network host, a free loopback port, no
 * volume) and measures spawn of `podman run -d` to the first 200 from /_sandbox/health (polled
 * every 10 ms from the host), the image's own HEALTHCHECK command through `podman healthcheck
 * run`, and SIGTERM (`podman stop`) to exit. Resolves with { skipped } or the figures.
 */
export async function measureContainer({ starts = 3, log = () => {} } = {}) {
  const missing = podmanMissing();
  if (missing) return { skipped: missing };
  const base = await baseImage();
  const tag = `localhost/deposit-sandbox-bench:${process.pid}`;
  log(`container: building ${tag} on ${base}`);
  const buildStart = performance.now();
  const image = await buildImage(tag, base);
  const buildSeconds = (performance.now() - buildStart) / 1000;
  try {
    const overBaseMb = ((await imageSize(tag)) - (await imageSize(base))) / 1e6;
    const ready = [];
    const check = [];
    const stop = [];
    const exitCodes = [];
    for (let i = 0; i < starts; i++) {
      const port = await freePort();
      const spawned = performance.now();
      const id = await podmanOk(['run', '-d', '--network', 'host', '-e', 'DEPOSIT_SANDBOX_HOST=127.0.0.1', '-e', `DEPOSIT_SANDBOX_PORT=${port}`, '-e', 'DEPOSIT_SANDBOX_IN_MEMORY=1', tag]);
      try {
        await untilHealthy(`http://127.0.0.1:${port}`, { everyMs: 10 });
        ready.push(performance.now() - spawned);
        const checkStart = performance.now();
        const result = await podman(['healthcheck', 'run', id]);
        if (result.code !== 0) throw new Error(`podman healthcheck run answered ${result.code}: ${result.stdout}${result.stderr}`);
        check.push(performance.now() - checkStart);
        const stopStart = performance.now();
        await podmanOk(['stop', '--time', '10', id]);
        stop.push(performance.now() - stopStart);
        exitCodes.push(Number(await podmanOk(['inspect', '--format', '{{.State.ExitCode}}', id])));
      } finally {
        await podman(['rm', '--force', '--volumes', '--time', '0', id]);
      }
    }
    return { base, buildSeconds, overBaseMb, readyMs: median(ready), worstReadyMs: Math.max(...ready), checkMs: median(check), stopMs: median(stop), exitCodes, starts };
  } finally {
    await image.remove();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const at = process.argv.indexOf('--starts');
  const starts = at === -1 ? 3 : Number(process.argv[at + 1]);
  const figures = await measureContainer({ starts, log: (text) => process.stderr.write(`bench: ${text}\n`) });
  process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`);
}
