// What matching scenario regexes with RE2 (re2js) costs the create path, against JavaScript's
// RegExp, measured in the same run.
//
//   node bench/scenario-matching.js [rounds, default 5]      (needs the build in dist/: npm run build)
//
// Two in-memory sandboxes with the same scenarios (the bundled ones and ten more of the kinds a
// shop writes, 19 patterns in all); the second one's engine compiles them with RegExp instead of
// RE2. Creates whose order and customer match none of them (so every pattern is tested) go
// through each app in turn (app.request(), no sockets), alternating request by request with the
// order flipped on every pair; the medians of the time per create are compared. Goal: at most
// 1.05. Two RE2 sandboxes against each other (A/A) show what the method cannot tell apart. The
// matching alone (engine.match(), no HTTP) is shown too, for the record.
// Bounded (a watchdog ends it after 120 s) and self-stopping.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../dist/app.js';
import { createServer } from '../dist/server/server.js';
import { ScenarioEngine } from '../dist/scenarios/scenario-engine.js';
import { alternate } from './lib/alternate.js';

const ROUNDS = Number(process.argv[2] ?? 5);
const CREATES_PER_SLICE = 300;
const MERCHANT = '6f1c2a9e-3b7d-4c52-9a1e-2d4b8f0c7e51';
const TOKEN = 'sandbox-token-demo';

const watchdog = setTimeout(() => {
  console.error('scenario-matching bench: still running after 120 s, stopping');
  process.exit(1);
}, 120_000);

const PATTERNS = [
  ['order', '^vip-'],
  ['order', '^test-\\d+$'],
  ['order', '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'],
  ['order', '-(late|slow)-'],
  ['order', '^ORD-\\d{4}-\\d{6}$'],
  ['customer', '@vip\\.example$'],
  ['customer', '^qa-'],
  ['order', '^(?:refund|chargeback)-'],
  ['order', 'x{3}$'],
  ['customer', '^[a-z]+\\+sandbox@'],
];
const folder = mkdtempSync(join(tmpdir(), 'deposit-sandbox-matching-'));
writeFileSync(
  join(folder, 'shop.yaml'),
  `scenarios:\n${PATTERNS.map(([field, pattern], i) => `  - name: shop-${i}\n    description: A pattern of the kind a shop writes.\n    match:\n      ${field === 'order' ? `order: ${JSON.stringify(pattern)}` : `customer: {regex: ${JSON.stringify(pattern)}}`}\n`).join('')}`,
);

let order = 0;
const body = () => JSON.stringify({ merchant: MERCHANT, order: `order-${++order}-plain`, customer: 'customer-1@shop.example', amount_cents: 31250, amount_currency: 'RUB', type: 'any_bank' });

/** One create through `app.request()`, timed (µs of wall time; in process, so this is CPU work). */
async function createOnce(app) {
  const started = process.hrtime.bigint();
  const res = await app.request('/api/v1/trades/deposit/create', { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Auth': TOKEN }, body: body() });
  const us = Number(process.hrtime.bigint() - started) / 1000;
  if (res.status !== 201) throw new Error(`create answered ${res.status}: ${await res.text()}`);
  if (res.headers.get('X-Sandbox-Scenario') !== null) throw new Error(`a scenario took the trade: ${res.headers.get('X-Sandbox-Scenario')}`);
  return us;
}

/** ns per engine.match() of a request no scenario takes. */
function matchNs(engine, count) {
  const request = { type: 'any_bank', merchant: MERCHANT, amount_cents: 31250, order: 'order-1-plain', customer: 'customer-1@shop.example' };
  for (let i = 0; i < count / 10; i++) engine.match({ ...request, order: `order-${i}-plain` });
  const started = process.hrtime.bigint();
  for (let i = 0; i < count; i++) engine.match({ ...request, order: `order-${i}-plain` });
  return Number(process.hrtime.bigint() - started) / count;
}

const options = { inMemory: true, auth: 'token', scenarios: folder };
const servers = { re2: await createServer(options), other: await createServer(options), native: await createServer(options) };
const re2 = servers.re2.root;
const native = servers.native.root;
native.scenarios = new ScenarioEngine(native.scenarios.entries(), { compile: (source) => new RegExp(source) });
const patterns = re2.scenarios.entries().filter(({ scenario }) => scenario.match?.order !== undefined || typeof scenario.match?.customer === 'object').length;

const count = ROUNDS * CREATES_PER_SLICE * 4;
const cost = await alternate(createOnce, createApp(servers.re2), createApp(servers.native), count);
const same = await alternate(createOnce, createApp(servers.re2), createApp(servers.other), count);
const matching = { re2: matchNs(re2.scenarios, 20_000), native: matchNs(native.scenarios, 20_000) };
await Promise.all(Object.values(servers).map((server) => server.close()));
rmSync(folder, { recursive: true, force: true });
clearTimeout(watchdog);

const ratio = cost.a / cost.b;
process.stdout.write(
  [
    `  create path, scenario regexes matched with RE2 / with RegExp (${patterns} patterns, none matching; in-process app.request(), median time of ${count.toLocaleString('en-US')} creates each, alternating request by request): ${cost.a.toFixed(1)} / ${cost.b.toFixed(1)} us per create = ${ratio.toFixed(3)} (two RE2 sandboxes: ${(same.a / same.b).toFixed(3)})   goal <= 1.05   ${ratio <= 1.05 ? 'PASS' : 'FAIL'}`,
    `  matching alone (engine.match(), the same ${patterns} patterns): RE2 ${(matching.re2 / 1000).toFixed(2)} us, RegExp ${(matching.native / 1000).toFixed(2)} us per request`,
    '',
  ].join('\n'),
);
process.exit(0);
