// Seeds a data folder with W workspaces of N trades each through the sandbox's own code
// (createServer + its workspace registry + createTrade), so the files have exactly the
// format the sandbox writes. Usage: node bench/seed-workspaces.js <data dir> <workspaces> <trades each>
import { createServer } from '../dist/server/server.js';
import { createTrade } from '../dist/trades/service.js';

const [dir, workspacesText, tradesText] = process.argv.slice(2);
const workspaces = Number(workspacesText);
const trades = Number(tradesText);
if (!dir || !Number.isInteger(workspaces) || !Number.isInteger(trades) || workspaces < 1 || trades < 1) {
  process.stderr.write('usage: node bench/seed-workspaces.js <data dir> <workspaces> <trades each>\n');
  process.exit(2);
}

const MERCHANT = '6f1c2a9e-3b7d-4c52-9a1e-2d4b8f0c7e51';
const root = await createServer({ data: dir, seed: 1, maxWorkspaces: workspaces });
for (let w = 0; w < workspaces; w++) {
  const opened = await root.workspaces.open(`ws-${w}`);
  if (!opened.ok) throw new Error(opened.message);
  const sandbox = opened.sandbox;
  for (let i = 0; i < trades; i++) {
    createTrade(sandbox, {
      merchant: MERCHANT,
      order: `seed-${i}`,
      amount_cents: 10_000 + i,
      amount_currency: 'RUB',
      type: i % 3 === 0 ? 'nspk' : 'any_bank',
      callback_url: 'http://127.0.0.1:9/callbacks',
    });
  }
  await sandbox.store.commit();
}
await root.close();
process.stdout.write(`seeded ${workspaces} workspaces x ${trades} trades\n`);
