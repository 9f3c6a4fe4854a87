import { defineConfig } from 'rolldown';

/**
 * Builds after `tsc`: the CLI, the programmatic API, and the browser scripts of the payment page,
 * the dashboard and the go-live page (src/pages/client/*.ts, real modules that import the shared formatters
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
  // The CLI: dist/cli/deposit-sandbox.cjs holds the command table and what the client commands
  // use; what a command loads when it runs (serve's server, the scenario checks, check-callback's
  // fuzzer) is a chunk of its own (dist/cli/chunk-*.cjs, beside it: the bundled files find package.json, fixtures/ and
  // scenarios/ relative to their own folder), so a `trigger` or a `wait` does not compile
  // the server. CommonJS, because Node 20 can give a code cache to a script but not to an ES
  // module: bin/deposit-sandbox.js compiles these files through src/cli/code-cache.ts.
  {
    input: { 'deposit-sandbox': 'dist/cli/main.js' },
    platform: 'node',
    logLevel: 'warn',
    // strict: the sources are ES modules, which are strict; CommonJS is not unless it says so.
    output: { dir: 'dist/cli', format: 'cjs', strict: true, entryFileNames: '[name].cjs', chunkFileNames: 'chunk-[name]-[hash].cjs' },
  },
  // The code cache itself, as one CommonJS file that bin/deposit-sandbox.js (CommonJS) requires
  // before the CLI: a start then needs no ES module loader at all. A build of its own, so that it
  // shares no chunk with the CLI (a chunk it loaded would be compiled before the cache is used).
  {
    input: { 'code-cache': 'dist/cli/code-cache.js' },
    platform: 'node',
    logLevel: 'warn',
    output: { dir: 'dist/cli', format: 'cjs', strict: true, entryFileNames: '[name].cjs' },
  },
  // The programmatic API, the package's entry (`import { startSandbox } from 'deposit-sandbox'`):
  // dist/lib/index.mjs and its chunks, so that a merchant's test file that imports the package
  // reads a few files instead of the few hundred of the tsc build beside them (dist/index.js, kept
  // for the types and for this repository's own tests). dist/lib/ is as deep as dist/cli/, so the
  // bundled files find package.json, fixtures/, profiles/ and scenarios/ the same way.
  {
    input: { index: 'dist/index.js' },
    platform: 'node',
    logLevel: 'warn',
    output: { dir: 'dist/lib', format: 'esm', entryFileNames: '[name].mjs', chunkFileNames: 'chunk-[name]-[hash].mjs' },
  },
  browser('pay'),
  browser('dashboard'),
  browser('go-live'),
]);
