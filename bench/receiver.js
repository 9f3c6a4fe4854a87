// A merchant's callback receiver for the bench, in a process of its own (as a real one would
// be, so its work does not slow the bench's own latency probe): answers 200 after holding
// each request `holdMs`, and reports each answered trade callback to its parent over IPC as
// { key: "<trade id>:<state>", at: <epoch ms> }.
// Usage (from bench/lib/callbacks.js): node bench/receiver.js <holdMs>
import { createServer } from 'node:http';

const holdMs = Number(process.argv[2] ?? 100);
const now = () => performance.timeOrigin + performance.now();

const server = createServer((req, res) => {
  let text = '';
  req.setEncoding('utf8');
  req.on('data', (chunk) => (text += chunk));
  req.on('end', () => {
    setTimeout(() => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('ok');
      try {
        const trade = JSON.parse(text);
        process.send?.({ key: `${trade.id}:${trade.state}`, at: now() });
      } catch {
        // not a trade: not counted
      }
    }, holdMs);
  });
});
server.keepAliveTimeout = 30_000;
server.listen(0, '127.0.0.1', () => process.send?.({ url: `http://127.0.0.1:${server.address().port}/callbacks` }));
// Ends with its parent: on disconnect (the parent exited or closed the channel).
process.on('disconnect', () => process.exit(0));
