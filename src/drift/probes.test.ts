import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { PROBES } from './probes.js';

it('has about 25 probes with unique ids, each listed in docs/drift.md', () => {
  const ids = PROBES.map((probe) => probe.id);
  expect(new Set(ids).size).toBe(ids.length);
  expect(ids.length).toBeGreaterThanOrEqual(23);
  const page = readFileSync(new URL('../../docs/drift.md', import.meta.url), 'utf8');
  for (const id of [...ids, 'callback.any_bank', 'callback.nspk', 'callback.ecom', 'signing.token']) expect(page).toContain(`\`${id}\``);
});
