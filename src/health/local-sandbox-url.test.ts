import { describe, expect, it } from 'vitest';
import { localSandboxUrl } from './local-sandbox-url.js';

describe('localSandboxUrl', () => {
  it("is serve's default address when nothing is set", () => {
    expect(localSandboxUrl({})).toBe('http://127.0.0.1:4242');
    expect(localSandboxUrl({ DEPOSIT_SANDBOX_HOST: ' ', DEPOSIT_SANDBOX_PORT: '' })).toBe('http://127.0.0.1:4242');
  });

  it('follows DEPOSIT_SANDBOX_HOST and DEPOSIT_SANDBOX_PORT, then PORT', () => {
    expect(localSandboxUrl({ DEPOSIT_SANDBOX_HOST: '127.0.0.2', DEPOSIT_SANDBOX_PORT: '5000' })).toBe('http://127.0.0.2:5000');
    expect(localSandboxUrl({ PORT: '6000' })).toBe('http://127.0.0.1:6000');
    expect(localSandboxUrl({ DEPOSIT_SANDBOX_PORT: '5000', PORT: '6000' })).toBe('http://127.0.0.1:5000');
    expect(localSandboxUrl({ DEPOSIT_SANDBOX_HOST: 'localhost' })).toBe('http://localhost:4242');
  });

  it('reaches a wildcard bind through loopback, and brackets IPv6', () => {
    expect(localSandboxUrl({ DEPOSIT_SANDBOX_HOST: '0.0.0.0', DEPOSIT_SANDBOX_PORT: '4242' })).toBe('http://127.0.0.1:4242');
    expect(localSandboxUrl({ DEPOSIT_SANDBOX_HOST: '::' })).toBe('http://[::1]:4242');
    expect(localSandboxUrl({ DEPOSIT_SANDBOX_HOST: '::1', PORT: '7000' })).toBe('http://[::1]:7000');
    expect(localSandboxUrl({ DEPOSIT_SANDBOX_HOST: '[::1]' })).toBe('http://[::1]:4242');
  });
});
