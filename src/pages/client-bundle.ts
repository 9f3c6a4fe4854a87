import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The browser scripts rolldown builds from src/pages/client/ (see rolldown.config.js). */
export type ClientBundle = 'pay.js' | 'dashboard.js' | 'go-live.js';

/**
 * Where the build writes them: `<package>/dist/client/`. This file runs from
 * `src/pages/` (tests), `dist/pages/` (the package) or `dist/cli/` (the bundled CLI); each is
 * two folders below the package root, so one relative URL serves all three.
 */
export const CLIENT_DIR = fileURLToPath(new URL('../../dist/client/', import.meta.url));

const cache = new Map<ClientBundle, string>();

/**
 * The built script, read once and kept. A checkout that was never built gets an error that
 * says how to build, instead of a page whose script is silently missing.
 */
export function clientBundle(name: ClientBundle): string {
  let body = cache.get(name);
  if (body === undefined) {
    try {
      body = readFileSync(`${CLIENT_DIR}${name}`, 'utf8');
    } catch (error) {
      throw new Error(`The browser script ${CLIENT_DIR}${name} is missing (${(error as Error).message}). Run \`npm run build\` to build it.`, { cause: error });
    }
    cache.set(name, body);
  }
  return body;
}
