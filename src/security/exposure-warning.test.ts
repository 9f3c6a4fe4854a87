import { describe, expect, it } from 'vitest';
import { exposureWarning } from './exposure-warning.js';

describe('exposureWarning', () => {
  it('warns for a reachable host without an admin token, naming the host and the fix', () => {
    for (const host of ['0.0.0.0', '::', '192.168.1.10']) {
      const warning = exposureWarning({ host });
      expect(warning).toContain(`listens on ${host}`);
      expect(warning).toContain('--admin-token');
      expect(warning).toContain('--host 127.0.0.1');
    }
  });

  it('is silent on loopback, or with an admin token (which it never prints)', () => {
    expect(exposureWarning({ host: '127.0.0.1' })).toBeUndefined();
    expect(exposureWarning({ host: 'localhost' })).toBeUndefined();
    expect(exposureWarning({ host: '0.0.0.0', adminToken: 'secret-admin' })).toBeUndefined();
  });
});
