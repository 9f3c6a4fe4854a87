/**
 * Error answers as they leave the socket: the status line and the header lines, names, case and
 * order included (the date aside), and the body. With the default profile these stay byte for
 * byte what they are; a change to how an answer is built (a Response read or wrapped on its way
 * out) can change the header lines while every test that reads answers through fetch still passes.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { listen, type RunningServer } from '../../src/server/listen.js';
import { createServer } from '../../src/server/server.js';
import { DEMO, rawExchange } from '../support.js';

let server: RunningServer;
let port: number;

beforeAll(async () => {
  server = await listen(await createServer({ inMemory: true, host: '127.0.0.1', port: 0 }));
  port = Number(new URL(server.url).port);
});
afterAll(() => server.close());

/** The answer to `head` (a request without a body, or with `body`), its Date header masked. */
async function exchange(head: string, body = ''): Promise<{ head: string; body: unknown }> {
  const text = await rawExchange(port, `${head}Host: 127.0.0.1\r\nConnection: close\r\n${body ? `Content-Length: ${Buffer.byteLength(body)}\r\n` : ''}\r\n${body}`);
  const [answerHead = '', answerBody = ''] = text.split('\r\n\r\n');
  return { head: answerHead.replace(/\r\nDate: [^\r]+/, '\r\nDate: <date>'), body: JSON.parse(answerBody) };
}

const TRADE = `/api/v1/trades/${DEMO.id}/11111111-2222-4333-8444-555555555555`;

it('a route that does not exist: 404, its header lines as they were', async () => {
  const answer = await exchange('GET /no/such/route HTTP/1.1\r\n');
  expect(answer.head).toBe('HTTP/1.1 404 Not Found\r\nContent-Type: application/json\r\nDate: <date>\r\nConnection: close\r\nContent-Length: 399');
  expect(answer.body).toMatchObject({ error: { status: 404 } });
});

it('a request without credentials: 401, its header lines as they were', async () => {
  const answer = await exchange(`GET ${TRADE} HTTP/1.1\r\n`);
  expect(answer.head).toBe('HTTP/1.1 401 Unauthorized\r\ncontent-type: application/json\r\nContent-Length: 313\r\nDate: <date>\r\nConnection: close');
  expect(answer.body).toMatchObject({ error: { status: 401 } });
});

it('a create the sandbox refuses: 422, its header lines as they were', async () => {
  const answer = await exchange(`POST /api/v1/trades/deposit/create HTTP/1.1\r\nX-Auth: ${DEMO.token}\r\nContent-Type: application/json\r\n`, '{}');
  expect(answer.head).toBe('HTTP/1.1 422 Unprocessable Entity\r\ncontent-type: application/json\r\nContent-Length: 286\r\nDate: <date>\r\nConnection: close');
  expect(answer.body).toMatchObject({ error: { status: 422 } });
});
