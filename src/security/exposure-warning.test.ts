import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { it } from '../../test/temp-folder.js';
import { exposureWarning } from './exposure-warning.js';
import { declaredInContainer, runningInContainer } from './running-in-container.js';

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

  it('inside a container, says the port may be published on loopback only and how to tell, with the port it listens on', () => {
    const warning = exposureWarning({ host: '0.0.0.0', port: 4300 }, true)!;
    expect(warning).toContain('listens on 0.0.0.0 in its container, as it must for\n!! a published port to reach it');
    expect(warning).toContain('The sandbox cannot see how the port is\n!! published: on loopback only (-p 127.0.0.1:4300:4300), only this machine\n!! reaches it and you can ignore this');
    expect(warning).toContain('on every interface (-p 4300:4300), set\n!! DEPOSIT_SANDBOX_ADMIN_TOKEN');
    expect(warning).not.toContain('which other machines can reach');
    for (const line of warning.split('\n')) expect(line.length, line).toBeLessThanOrEqual(80);
  });

  it('is silent on loopback, or with an admin token (which it never prints)', () => {
    expect(exposureWarning({ host: '127.0.0.1' }, false)).toBeUndefined();
    expect(exposureWarning({ host: 'localhost' }, true)).toBeUndefined();
    expect(exposureWarning({ host: '0.0.0.0', adminToken: 'secret-admin' }, true)).toBeUndefined();
  });
});

describe('runningInContainer', () => {
  it('follows DEPOSIT_SANDBOX_IN_CONTAINER when it is set, whatever the files say', ({ folder }) => {
    const marker = join(folder, '.dockerenv');
    writeFileSync(marker, '');
    expect(runningInContainer([marker], { DEPOSIT_SANDBOX_IN_CONTAINER: '0' })).toBe(false);
    expect(runningInContainer([], { DEPOSIT_SANDBOX_IN_CONTAINER: '1' })).toBe(true);
    expect(declaredInContainer({ DEPOSIT_SANDBOX_IN_CONTAINER: 'true' })).toBe(true);
    expect(declaredInContainer({ DEPOSIT_SANDBOX_IN_CONTAINER: 'off' })).toBe(false);
    expect(declaredInContainer({ DEPOSIT_SANDBOX_IN_CONTAINER: '' })).toBe(false);
    expect(declaredInContainer({ container: 'podman' })).toBeUndefined();
  });

  it("sees Docker's /.dockerenv, podman's /run/.containerenv or the container variable", ({ folder }) => {
    const marker = join(folder, '.dockerenv');
    expect(runningInContainer([marker], {})).toBe(false);
    writeFileSync(marker, '');
    expect(runningInContainer([marker], {})).toBe(true);
    expect(runningInContainer([], { container: 'podman' })).toBe(true);
    expect(runningInContainer([], { container: '' })).toBe(false);
  });
});
