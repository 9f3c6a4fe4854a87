/**
 * The package root's runtime exports, pinned: adding or removing one is a change of the public
 * API (docs/programmatic.md lists the same names, types included). The types are checked by
 * test/pack.test.ts against the installed package.
 */
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import * as root from '../../src/index.js';

const RUNTIME_EXPORTS = ['AdminClient', 'AdminClientError', 'loadProfile', 'sign', 'signRequest', 'signatureHeader', 'startSandbox', 'stringToSign', 'verifyCallbackSignature', 'verifySignature'];

it("exports exactly startSandbox, the signing helpers (the sandbox's and a provider profile's) and the admin client", () => {
  expect(Object.keys(root).sort()).toEqual(RUNTIME_EXPORTS);
});

it('docs/programmatic.md documents every runtime export', () => {
  const page = readFileSync(new URL('../../docs/programmatic.md', import.meta.url), 'utf8');
  for (const name of RUNTIME_EXPORTS) expect(page, name).toContain(`\`${name}`);
});
