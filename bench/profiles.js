// What a provider profile's request signing costs the create path, against the sandbox's own,
// measured in the same run.
//
//   node bench/profiles.js [rounds, default 5]      (needs the build in dist/: npm run build)
//
// Two in-memory sandboxes with --auth signature: one under the `sandbox` profile (hex
// HMAC-SHA256 in X-Auth), one under `hmac-sha512-base64` (base64 HMAC-SHA512 in X-Signature, the
// token in X-Auth). Signed creates go through each app in turn (app.request(), no sockets),
// alternating request by request with the order flipped on every pair; the medians of the time
// per create are compared as throughput (the inverse). Goal: hmac-sha512-base64 at least 0.9 x
// sandbox. Two `sandbox` sandboxes against each other (A/A) show what the method cannot tell
// apart. Bounded (a watchdog ends it after 120 s) and self-stopping.
import { createHmac } from 'node:crypto';
import { createApp } from '../dist/app.js';
import { createServer } from '../dist/server/server.js';
import { alternate } from './lib/alternate.js';

const ROUNDS = Number(process.argv[2] ?? 5);
const CREATES_PER_SLICE = 300;
const MERCHANT = '6f1c2a9e-3b7d-4c52-9a1e-2d4b8f0c7e51';
const TOKEN = 'sandbox-token-demo';
const SECRET = 'sandbox-secret-demo';

const watchdog = setTimeout(() => {
  console.error('profiles bench: still running after 120 s, stopping');
  process.exit(1);
}, 120_000);

let order = 0;
/** A create body and its slots in the document's order (amount, currency, callback, customer, merchant, order, return, type). */
function request() {
  const body = { merchant: MERCHANT, order: `order-${++order}`, customer: 'customer-1@shop.example', amount_cents: 31250, amount_currency: 'RUB', type: 'any_bank' };
  const signed = [body.amount_cents, body.amount_currency, '', body.customer, body.merchant, body.order, '', body.type].join('::');
  return { body: JSON.stringify(body), signed };
}

/** How each profile's merchant signs a create: the headers it sends. */
const SIGNERS = {
  sandbox: (signed) => ({ 'X-Auth': createHmac('sha256', SECRET).update(signed).digest('hex') }),
  'hmac-sha512-base64': (signed) => ({ 'X-Auth': TOKEN, 'X-Signature': createHmac('sha512', SECRET).update(signed).digest('base64') }),
};

/** One signed create through `app.request()`, timed (µs of wall time; in process, so this is CPU work). */
async function createOnce({ app, sign }) {
  const { body, signed } = request();
  const started = process.hrtime.bigint();
  const res = await app.request('/api/v1/trades/deposit/create', { method: 'POST', headers: { 'Content-Type': 'application/json', ...sign(signed) }, body });
  const us = Number(process.hrtime.bigint() - started) / 1000;
  if (res.status !== 201) throw new Error(`create answered ${res.status}: ${await res.text()}`);
  return us;
}

const servers = [];
async function target(profile) {
  const server = await createServer({ inMemory: true, auth: 'signature', profile });
  servers.push(server);
  return { app: createApp(server), sign: SIGNERS[profile] };
}

const count = ROUNDS * CREATES_PER_SLICE * 4;
const sandbox = await target('sandbox');
const cost = await alternate(createOnce, sandbox, await target('hmac-sha512-base64'), count);
const same = await alternate(createOnce, sandbox, await target('sandbox'), count);
await Promise.all(servers.map((server) => server.close()));
clearTimeout(watchdog);

// Throughput is the inverse of the time per create: hmac-sha512-base64's over sandbox's.
const ratio = cost.a / cost.b;
process.stdout.write(
  `  signed creates, hmac-sha512-base64 / sandbox profile (in-process app.request(), --auth signature, median time of ${count.toLocaleString('en-US')} creates each, alternating request by request): ${cost.b.toFixed(1)} / ${cost.a.toFixed(1)} us per create = ${ratio.toFixed(3)} x the sandbox profile's throughput (two sandbox-profile sandboxes: ${(same.a / same.b).toFixed(3)})   goal >= 0.90   ${ratio >= 0.9 ? 'PASS' : 'FAIL'}\n`,
);
process.exit(0);
