import { afterAll, beforeAll, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../programmatic/start-sandbox.js';
import { DEMO, p2pBody } from '../../test/support.js';
import { reportCommand } from './report.js';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.close());

it('report --workspace reads the report of that workspace alone; the unprefixed one holds every workspace, each named (docs/workspaces.md, Command line)', async () => {
  // Workspace docs-1 is made by an accepted create (a refusal alone makes no workspace), then a wrong signature in it only.
  const accepted = await fetch(`${sandbox.url}/w/docs-1/api/v1/trades/deposit/create`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Auth': DEMO.token },
    body: JSON.stringify(p2pBody()),
  });
  expect(accepted.status).toBe(201);
  const refused = await fetch(`${sandbox.url}/w/docs-1/api/v1/trades/deposit/create`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Auth': 'a'.repeat(64) },
    body: JSON.stringify(p2pBody()),
  });
  expect(refused.status).toBe(401);
  const quiet = () => undefined;
  const inWorkspace = await reportCommand({ url: sandbox.url, source: 'flag', workspace: 'docs-1' }, { format: 'json' }, quiet);
  const unprefixed = await reportCommand({ url: sandbox.url, source: 'flag' }, { format: 'json' }, quiet);
  expect(inWorkspace.merchants.map((m) => m.merchant)).toEqual([DEMO.id]);
  expect(inWorkspace.total).toBe(1);
  expect(inWorkspace.merchants[0]?.workspace).toBeUndefined();
  expect(unprefixed.total).toBe(1);
  expect(unprefixed.merchants.map((m) => [m.workspace, m.merchant])).toEqual([['docs-1', DEMO.id]]);
});
