// The bench's latency probe, in a process of its own (so the work of whoever drives the
// sandbox does not slow the probe's own client). Open loop: it sends one GET trade request
// every `everyMs` whatever the earlier ones are doing (as a merchant's API calls arrive), so
// it measures the latency of requests at a steady rate, not how fast a saturating client can
// go. On "stop" from the parent it waits for the requests in flight and reports
// { p50, p99, count } in ms over IPC.
// Usage (from bench/lib/callbacks.js): node bench/probe.js <url> <everyMs> <id,...>
import { Agent, request } from 'node:http';
import { MERCHANT, TOKEN } from './lib/load.js';

const [url, everyText, idsText] = process.argv.slice(2);
const ids = idsText.split(',');
const agent = new Agent({ keepAlive: true });
const times = [];
const inFlight = new Set();
let n = 0;

function get(id) {
  return new Promise((resolve, reject) => {
    const req = request(`${url}/api/v1/trades/${MERCHANT}/${id}`, { agent, headers: { 'x-token': TOKEN } }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`probe GET answered ${res.statusCode}`))));
    });
    req.setTimeout(30_000, () => req.destroy(new Error('probe GET timed out')));
    req.on('error', reject);
    req.end();
  });
}

function fire() {
  const started = performance.now();
  const sent = get(ids[n++ % ids.length]).then(() => {
    times.push(performance.now() - started);
    inFlight.delete(sent);
  });
  inFlight.add(sent);
}

const timer = setInterval(fire, Number(everyText));
process.send({ ready: true });
process.on('message', async (message) => {
  if (message !== 'stop') return;
  clearInterval(timer);
  await Promise.all(inFlight);
  times.sort((a, b) => a - b);
  const at = (q) => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? Number.NaN;
  process.send({ p50: at(0.5), p99: at(0.99), count: times.length }, () => process.exit(0));
});
process.on('disconnect', () => process.exit(0));
