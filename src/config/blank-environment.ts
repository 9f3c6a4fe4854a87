/** The variables the CLI reads: DEPOSIT_SANDBOX_* and PORT. */
const OURS = /^(DEPOSIT_SANDBOX_\w+|PORT)$/;

/**
 * Removes the sandbox's environment variables that are set but blank (`PORT=`,
 * `DEPOSIT_SANDBOX_SEED=` in a compose file or a CI matrix), so that they count as unset: the
 * default applies, as for a flag not given. Without this, an empty value would count as a value
 * (`PORT=` would listen on a random port, `DEPOSIT_SANDBOX_SEED=` seed with 0,
 * `DEPOSIT_SANDBOX_AUTH=` refuse to start). Returns the names removed.
 */
export function unsetBlankEnvironment(env: NodeJS.ProcessEnv = process.env): string[] {
  const blank = Object.keys(env).filter((name) => OURS.test(name) && (env[name] ?? '').trim() === '');
  for (const name of blank) delete env[name];
  return blank;
}
