import { existsSync } from 'node:fs';

/**
 * Whether this process runs inside a container: Docker's `/.dockerenv`, podman's
 * `/run/.containerenv`, or the `container` variable that podman and systemd-nspawn set.
 * `files` and `env` are for tests.
 */
export function runningInContainer(files: readonly string[] = ['/.dockerenv', '/run/.containerenv'], env: NodeJS.ProcessEnv = process.env): boolean {
  return (env['container'] ?? '') !== '' || files.some((file) => existsSync(file));
}
