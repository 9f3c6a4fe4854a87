// Seeds a data folder with N trades through the sandbox's own code (createServer +
// createTrade + the file store), so the files have exactly the format the sandbox writes.
// Usage: node bench/seed.js <data dir> <count> <ids file>
import { writeFileSync } from 'node:fs';
import { createServer } from '../dist/server/server.js';
import { createTrade } from '../dist/trades/service.js';

const [dir, countText, idsFile] = process.argv.slice(2);
const count = Number(countText);
if (!dir || !idsFile || !Number.isInteger(count) || count < 1) {
  process.stderr.write('usage: node bench/seed.js <data dir> <count> <ids file>\n');
  process.exit(2);
}

const MERCHANT = '6f1c2a9e-3b7d-4c52-9a1e-2d4b8f0c7e51';
const server = await createServer({ data: dir, seed: 1 });
const sandbox = server.root;
const ids = [];
for (let i = 0; i < count; i++) {
  const trade = createTrade(sandbox, {
    merchant: MERCHANT,
    order: `seed-${i}`,
    amount_cents: 10_000 + (i % 90_000),
    amount_currency: 'RUB',
    type: i % 3 === 0 ? 'nspk' : 'any_bank',
    callback_url: 'http://127.0.0.1:9/callbacks',
  });
  if (i % Math.max(1, Math.floor(count / 10_000)) === 0) ids.push(trade.id);
  if (i % 5_000 === 4_999) await sandbox.store.commit();
}
await server.close();
writeFileSync(idsFile, JSON.stringify(ids));
process.stdout.write(`seeded ${count} trades\n`);
