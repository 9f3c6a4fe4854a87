import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { it } from '../../test/temp-folder.js';
import { exposureWarning } from './exposure-warning.js';
import { runningInContainer } from './running-in-container.js';

describe('exposureWarning', () => {
  it('warns for a reachable host without an admin token, naming the host and the fix', () => {
    for (const host of ['0.0.0.0', '::', '192.168.1.10']) {
      const warning = exposureWarning({ host }, false);
      expect(warning).toContain(`listens on ${host}`);
      expect(warning).toContain('--admin-token');
      expect(warning).toContain('--host 127.0.0.1');
    }
  });

  it('inside a container, advises the admin token or a loopback-published port, not --host 127.0.0.1', () => {
    const warning = exposureWarning({ host: '0.0.0.0' }, true);
    expect(warning).toContain('DEPOSIT_SANDBOX_ADMIN_TOKEN');
    expect(warning).toContain('-p 127.0.0.1:4242:4242');
    expect(warning).not.toContain('--host 127.0.0.1');
  });

  it('is silent on loopback, or with an admin token (which it never prints)', () => {
    expect(exposureWarning({ host: '127.0.0.1' }, false)).toBeUndefined();
    expect(exposureWarning({ host: 'localhost' }, true)).toBeUndefined();
    expect(exposureWarning({ host: '0.0.0.0', adminToken: 'secret-admin' }, true)).toBeUndefined();
  });
});

describe('runningInContainer', () => {
  it("sees Docker's /.dockerenv, podman's /run/.containerenv or the container variable", ({ folder }) => {
    const marker = join(folder, '.dockerenv');
    expect(runningInContainer([marker], {})).toBe(false);
    writeFileSync(marker, '');
    expect(runningInContainer([marker], {})).toBe(true);
    expect(runningInContainer([], { container: 'podman' })).toBe(true);
    expect(runningInContainer([], { container: '' })).toBe(false);
  });
});
