// The baseline: a bare node:http server that reads the request body and answers a small
// JSON document (201 for POST, 200 otherwise). Prints its URL like the sandbox does.
import { createServer } from 'node:http';

const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    const body = JSON.stringify({ id: 'b1e1a5e2-0000-4000-8000-000000000000', state: 'created', bytes: Buffer.concat(chunks).length });
    res.writeHead(req.method === 'POST' ? 201 : 200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
    res.end(body);
  });
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`bare node:http listening on http://127.0.0.1:${server.address().port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
