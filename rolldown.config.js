import { defineConfig } from 'rolldown';

/**
 * Two builds after `tsc`: the single-file CLI, and the browser scripts of the payment page
 * and the dashboard (src/pages/client/*.ts, real modules that import the shared formatters
 * and message catalogues) as one self-contained file each in dist/client/.
 */
const browser = (name) => ({
  input: `src/pages/client/${name}.ts`,
  platform: 'browser',
  tsconfig: 'tsconfig.client.json',
  logLevel: 'warn',
  output: { file: `dist/client/${name}.js`, format: 'iife', sourcemap: false },
});

export default defineConfig([
  {
    input: 'dist/cli/main.js',
    platform: 'node',
    logLevel: 'warn',
    output: { file: 'dist/cli/deposit-sandbox.mjs', format: 'esm' },
  },
  browser('pay'),
  browser('dashboard'),
]);
