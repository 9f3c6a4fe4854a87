// The plumbing every reference receiver shares: an HTTP server with the callback endpoint
// (POST /callback) and the balance probe (GET /probe?order=<order>), and an in-memory ledger.
// The receivers differ only in their `handle` function. Node's standard library only.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import { pathToFileURL } from 'node:url';

/** The bundled demo merchant's secret (fixtures/merchants.json); set MERCHANT_SECRET for yours. */
export const SECRET = process.env.MERCHANT_SECRET ?? 'sandbox-secret-demo';

/** True when X-Signature is the hex HMAC-SHA256 of the raw body bytes keyed with the secret. */
export function signatureOk(raw, signature, secret = SECRET) {
  if (typeof signature !== 'string') return false;
  const expected = Buffer.from(createHmac('sha256', secret).update(raw).digest('hex'));
  const got = Buffer.from(signature.trim().toLowerCase());
  return got.length === expected.length && timingSafeEqual(got, expected);
}

/**
 * Later states outrank earlier ones: a callback may never move an order back. A provider's
 * intermediate state (a profile's states.intermediate, e.g. processing) ranks between the waiting
 * and the final ones; with several, give each its rank in their order.
 */
export const RANK = { created: 0, ecom: 0, confirmed: 1, canceled: 1, expired: 1 };
const rankOf = (state) => RANK[state] ?? 0.5;

/**
 * The shop's data: one row per order ({ state, credited_cents }), the callback event ids already
 * handled, and the credits table with its unique key (one credit per order). Each method that
 * talks to the "database" first waits one round trip (`latencyMs`, default 0: the next turn of
 * the event loop), so other requests run in between, as with a real database.
 */
export function createLedger({ latencyMs = Number(process.env.DB_LATENCY_MS ?? 0) } = {}) {
  const orders = new Map();
  const credits = new Set();
  const roundTrip = () => new Promise((resolve) => (latencyMs > 0 ? setTimeout(resolve, latencyMs) : setImmediate(resolve)));
  const row = (order) => {
    if (!orders.has(order)) orders.set(order, { state: null, credited_cents: 0 });
    return orders.get(order);
  };
  return {
    orders,
    events: new Set(),
    roundTrip,
    /** SELECT state FROM orders WHERE order_id = ? */
    async readState(order) {
      await roundTrip();
      return orders.get(order)?.state ?? null;
    },
    /**
     * INSERT INTO credits (order_id, amount) VALUES (?, ?) ON CONFLICT (order_id) DO NOTHING,
     * and the order's balance with it, in one statement: true when this call inserted the row.
     * The unique key, not an earlier look-up, is what makes a second credit impossible.
     */
    async insertCredit(order, amount) {
      await roundTrip();
      if (credits.has(order)) return false;
      credits.add(order);
      row(order).credited_cents += amount;
      return true;
    },
    /** UPDATE orders SET state = ? WHERE order_id = ? AND rank(state) <= rank(?): never moves an order back. */
    async advanceState(order, state) {
      await roundTrip();
      const current = row(order);
      if (current.state === null || rankOf(state) >= rankOf(current.state)) current.state = state;
    },
  };
}

/**
 * An http.Server for `handle(request, ledger)`, which gets { raw, trade, signature, eventId }
 * (trade is null when the body is not JSON) and returns the status to answer (or a promise of it).
 */
export function createReceiver(handle, ledger = createLedger()) {
  return createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://receiver');
    if (req.method === 'GET' && url.pathname === '/probe') {
      const row = ledger.orders.get(url.searchParams.get('order') ?? '');
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ state: row?.state ?? null, credited_cents: row?.credited_cents ?? 0 }));
      return;
    }
    if (req.method !== 'POST') return void res.writeHead(404).end();
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      let trade = null;
      try {
        trade = JSON.parse(raw.toString('utf8'));
      } catch {
        // handled below as a 400
      }
      const request = { raw, trade, signature: req.headers['x-signature'], eventId: req.headers['x-sandbox-event-id'] };
      Promise.resolve(trade === null ? 400 : handle(request, ledger)).then(
        (status) => res.writeHead(status, { 'Content-Type': 'text/plain' }).end(status < 300 ? 'ok' : 'refused'),
        (error) => res.writeHead(500, { 'Content-Type': 'text/plain' }).end(String(error)),
      );
    });
  });
}

/** Runs the receiver when its file is started with node: PORT (default 3000) on 127.0.0.1. */
export function runIfMain(meta, handle) {
  if (process.argv[1] === undefined || meta.url !== pathToFileURL(process.argv[1]).href) return;
  const port = Number(process.env.PORT ?? 3000);
  const server = createReceiver(handle);
  server.listen(port, '127.0.0.1', () => {
    const { port: bound } = server.address();
    console.log(`receiver on http://127.0.0.1:${bound}/callback, probe on http://127.0.0.1:${bound}/probe`);
  });
}
