// The balance probe in Node (node:http): GET /probe?order=<order> answers the shop's state
// and the kopecks credited for that order. Run: PORT=3001 node examples/probes/probe.mjs
import { createServer } from 'node:http';

const orders = new Map([['order-1001', { state: 'confirmed', credited_cents: 31250 }]]); // your shop's data

const server = createServer((req, res) => {
  const order = new URL(req.url ?? '/', 'http://probe').searchParams.get('order') ?? '';
  const row = orders.get(order) ?? { state: null, credited_cents: 0 };
  res.writeHead(200, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify({ state: row.state, credited_cents: row.credited_cents }));
});
server.listen(Number(process.env.PORT ?? 3001), '127.0.0.1', () => {
  console.log(`probe on http://127.0.0.1:${server.address().port}/probe`);
});
