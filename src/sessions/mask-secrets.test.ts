import { describe, expect, it } from 'vitest';
import { fingerprint, isCredentialHeader, maskText } from './mask-secrets.js';

describe('maskText', () => {
  it('masks every known value wherever it stands, and leaves short ones alone', () => {
    expect(maskText('order=s3cret-value&x=s3cret-value', ['s3cret-value', 'ab'])).toBe('order=***&x=***');
    expect(maskText('nothing here', ['s3cret-value'])).toBe('nothing here');
  });

  it('with members: masks the string of every token, secret, received and signature member, and Standard Webhooks keys', () => {
    const json = JSON.stringify({
      merchant: { id: 'm', token: 'tok_1', secret: 'sec \\"quoted\\"', rate: 1 },
      signature: 'abc',
      error: { signature: { received: 'xyz', header: 'X-Auth' } },
      key: 'whsec_QUJD+/=',
    });
    const masked = maskText(json, [], true);
    expect(JSON.parse(masked)).toEqual({ merchant: { id: 'm', token: '***', secret: '***', rate: 1 }, signature: '***', error: { signature: { received: '***', header: 'X-Auth' } }, key: '***' });
    // Without members, only known values.
    expect(maskText(json, [])).toBe(json);
  });
});

describe('isCredentialHeader', () => {
  it('is the auth headers and any header about a signature, in any case', () => {
    for (const name of ['X-Auth', 'x-token', 'Authorization', 'Cookie', 'X-Signature', 'webhook-signature', 'X-Shop-Signature']) expect(isCredentialHeader(name), name).toBe(true);
    for (const name of ['Content-Type', 'X-Sandbox-Event-Id', 'webhook-id', 'webhook-timestamp']) expect(isCredentialHeader(name), name).toBe(false);
  });
});

it('fingerprint is the hex SHA-256', () => {
  expect(fingerprint('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
});
