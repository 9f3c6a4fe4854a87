// A callback receiver in plain Node: verifies X-Signature, handles each state of a trade once.
// Run it with `node examples/node/callback-receiver.js` (PORT=3000 by default).
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';

const SECRET = 'sandbox-secret-demo'; // the merchant's secret
// Trade id + state pairs already handled: a repeat, a retry and a replay carry the same pair under
// every provider profile (X-Sandbox-Event-Id is a sandbox-only helper, which strict turns off).
const seen = new Set();

createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    const raw = Buffer.concat(chunks);
    const expected = createHmac('sha256', SECRET).update(raw).digest();
    const given = Buffer.from(String(req.headers['x-signature'] ?? ''), 'hex');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      res.writeHead(401).end('bad signature');
      return;
    }
    const trade = JSON.parse(raw.toString('utf8'));
    const key = `${trade.id} ${trade.state}`;
    if (!seen.has(key)) {
      seen.add(key);
      console.log(`trade ${trade.id} is ${trade.state}`);
    }
    res.writeHead(200).end('ok'); // answer fast; do slow work after answering
  });
}).listen(Number(process.env.PORT ?? 3000), '127.0.0.1', function () {
  console.log(`listening on http://127.0.0.1:${this.address().port}`); // PORT=0 picks a free port
});
