// examples/workspaces/vitest's own config as test-examples.js runs it in this checkout. There,
// `import { startSandbox } from 'deposit-sandbox'` resolves to the package itself (dist/), not to
// a copy under node_modules/ as in a merchant's project, so vitest would transform the build as
// if it were the project's source; loading it as Node does, as vitest does with any installed
// package, runs the same code without that work.
import { mergeConfig } from 'vitest/config';
import example from '../../examples/workspaces/vitest/vitest.config.ts';

export default mergeConfig(example, { test: { server: { deps: { external: [/\/dist\//] } } } });
