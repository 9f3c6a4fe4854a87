import { describe, expect, it } from 'vitest';
import { AdminClientError } from './admin-client.js';
import { clientFor, describeTarget, withSandbox, withTarget } from './sandbox-target.js';

describe('the sandbox an admin command talks to', () => {
  it('says where the address came from', () => {
    expect(describeTarget({ url: 'http://127.0.0.1:4242', source: 'default' })).toBe('http://127.0.0.1:4242 (the default; pass --url or set DEPOSIT_SANDBOX_URL for another sandbox)');
    expect(describeTarget({ url: 'http://127.0.0.1:5000/', source: 'flag' })).toBe('http://127.0.0.1:5000 (from --url)');
    expect(describeTarget({ url: 'http://127.0.0.1:5000', source: 'env' })).toBe('http://127.0.0.1:5000 (from DEPOSIT_SANDBOX_URL)');
  });

  it('appends it to any error, keeping an AdminClientError what it was', () => {
    const target = { url: 'http://127.0.0.1:5000', source: 'env' as const };
    const wrapped = withTarget(new AdminClientError('No trade with id "x".', 404, 'trade_not_found'), target);
    expect(wrapped).toBeInstanceOf(AdminClientError);
    expect(wrapped.message).toBe('No trade with id "x".\n  sandbox: http://127.0.0.1:5000 (from DEPOSIT_SANDBOX_URL)');
    expect((wrapped as AdminClientError).status).toBe(404);
    expect(withTarget('plain', target).message).toBe('plain\n  sandbox: http://127.0.0.1:5000 (from DEPOSIT_SANDBOX_URL)');
  });

  it('a bad --url is named with the sandbox line too; withSandbox wraps what the work throws', async () => {
    expect(() => clientFor({ url: 'localhost:4242', source: 'flag' })).toThrow(/--url must be an http\(s\) URL[\s\S]*sandbox: localhost:4242 \(from --url\)/);
    await expect(withSandbox({ url: 'http://127.0.0.1:1', source: 'flag' }, () => Promise.reject(new Error('boom')))).rejects.toThrow('boom\n  sandbox: http://127.0.0.1:1 (from --url)');
  });
});
