import { describe, expect, it } from 'vitest';
import { CaptureError, readCapture } from './read-capture.js';

const har = (entries: Array<{ method: string; url: string; body?: string }>) =>
  JSON.stringify({
    log: {
      version: '1.2',
      entries: entries.map((entry) => ({
        request: {
          method: entry.method,
          url: entry.url,
          headers: [{ name: 'X-Signature', value: 'ab' }],
          ...(entry.body !== undefined ? { postData: { mimeType: 'application/json', text: entry.body } } : {}),
        },
      })),
    },
  });

describe('readCapture', () => {
  it('reads raw HTTP with CRLF or LF lines, headers lowercased, the body exact, cut at Content-Length', () => {
    const crlf = readCapture('POST /cb HTTP/1.1\r\nHost: shop\r\nX-Signature: AB\r\nContent-Type: application/json\r\n\r\n{"a": 1}\n', 'cb.http');
    expect(crlf).toEqual({ method: 'POST', url: '/cb', headers: { host: 'shop', 'x-signature': 'AB', 'content-type': 'application/json' }, body: '{"a": 1}\n', source: 'raw HTTP' });
    const cut = readCapture('POST /cb HTTP/1.1\nContent-Length: 8\n\n{"a": 1}\n\n', 'cb.http');
    expect(cut.body).toBe('{"a": 1}');
    expect(readCapture('GET /api/v1/trades/m/u\nX-Token: t\n', 'get.http')).toMatchObject({ method: 'GET', url: '/api/v1/trades/m/u', headers: { 'x-token': 't' }, body: '' });
  });

  it('reads a HAR file (the only entry, the one --entry names, or the only one that fits), an entry, or a request', () => {
    expect(readCapture(har([{ method: 'post', url: 'https://p.example/cb', body: '{}' }]), 'one.har')).toMatchObject({
      method: 'POST',
      url: 'https://p.example/cb',
      body: '{}',
      headers: { 'x-signature': 'ab' },
      source: 'HAR entry 1 of 1',
    });
    const two = har([
      { method: 'GET', url: 'https://shop.example/' },
      { method: 'POST', url: 'https://shop.example/cb', body: '{"id":"t"}' },
    ]);
    expect(readCapture(two, 'two.har', { entry: 2 }).body).toBe('{"id":"t"}');
    expect(readCapture(two, 'two.har', { pick: (request) => request.method === 'POST' }).source).toBe('HAR entry 2 of 2');
    expect(() => readCapture(two, 'two.har')).toThrow(/holds 2 entries; choose one with --entry <n>:\n {2}1: GET https:\/\/shop.example\/\n {2}2: POST/);
    expect(() => readCapture(two, 'two.har', { entry: 3 })).toThrow('--entry 3 is not an entry of this HAR, which holds 2.');
    const entry = { request: { method: 'POST', url: '/cb', headers: [], postData: { text: 'x' } } };
    expect(readCapture(JSON.stringify(entry), 'entry.json').source).toBe('HAR entry');
    expect(readCapture(JSON.stringify(entry.request), 'request.json').source).toBe('HAR request');
  });

  it('says what it expected of a file it cannot read', () => {
    expect(() => readCapture('hello world', 'x.txt')).toThrow(CaptureError);
    expect(() => readCapture('hello world', 'x.txt')).toThrow('is not a request line such as "POST /api/v1/trades/deposit/create HTTP/1.1"');
    expect(() => readCapture('{"log": {"entries": []}}', 'empty.har')).toThrow(/log.entries: holds no entry/);
    expect(() => readCapture('{"log": ', 'bad.har')).toThrow('starts like JSON but is not JSON');
  });
});
