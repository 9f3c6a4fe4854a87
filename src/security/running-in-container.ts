import { existsSync } from 'node:fs';
import { saysOff } from '../config/off-value.js';

/** The variable the image's Dockerfile sets: the sandbox runs as a container's entry point. */
const IN_CONTAINER_VARIABLE = 'DEPOSIT_SANDBOX_IN_CONTAINER';

/**
 * What DEPOSIT_SANDBOX_IN_CONTAINER says: true when set (`1`), false when set to 0 / false / no /
 * off / empty, undefined when not set. The image sets it, which is how the sandbox knows that the
 * paths it prints are inside a container whose log is read from outside (`docker logs`); a file
 * such as /.dockerenv only says that some container is around, which is also true of a dev
 * container the reader works in. `env` is for tests.
 */
export function declaredInContainer(env: NodeJS.ProcessEnv = process.env): boolean | undefined {
  const value = env[IN_CONTAINER_VARIABLE];
  return value === undefined ? undefined : !saysOff(value);
}

/**
 * Whether this process runs inside a container: DEPOSIT_SANDBOX_IN_CONTAINER when it is set,
 * else Docker's `/.dockerenv`, podman's `/run/.containerenv`, or the `container` variable that
 * podman and systemd-nspawn set. `files` and `env` are for tests.
 */
export function runningInContainer(files: readonly string[] = ['/.dockerenv', '/run/.containerenv'], env: NodeJS.ProcessEnv = process.env): boolean {
  return declaredInContainer(env) ?? ((env['container'] ?? '') !== '' || files.some((file) => existsSync(file)));
}
