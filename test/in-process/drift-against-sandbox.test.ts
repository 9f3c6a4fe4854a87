import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { writeProfile } from '../../src/drift/write-profile.js';
import { BUILTIN_PROFILE_NAMES, type BuiltinProfileName } from '../../src/profile/builtin-profile-names.js';
import { loadProfile } from '../../src/profile/load-profile.js';
import { startSandbox } from '../../src/programmatic/start-sandbox.js';
import { it } from '../temp-folder.js';
import { driftAgainst, row } from './drift-support.js';

// Local targets only: sandboxes in this process on 127.0.0.1. A target with the run's profile
// shows no difference, run after run; a target with another built-in shows exactly what that
// profile changes, and the profile --write-profile writes from it makes the next run show none.

const callbacksOf = (types: readonly string[], aspect: string, path: string, sandbox: string, target: string) => types.map((type) => [`callback.${type}`, aspect, path, sandbox, target] as const);
const TYPES = ['any_bank', 'nspk', 'ecom'] as const;
const SIGNING = ['create.any_bank', 'status', '', 201, 401] as const;

/** What each built-in changes against the `sandbox` profile, as drift reports it. */
const EXPECTED: Record<BuiltinProfileName, ReadonlyArray<readonly [string, string, string, string | number, string | number]>> = {
  sandbox: [],
  strict: [
    ['create.repeated_order', 'error_shape', "earlier trade's id", 'named', 'not named'],
    ...callbacksOf(TYPES, 'header', 'x-sandbox-attempt', 'present', 'missing'),
    ...callbacksOf(TYPES, 'header', 'x-sandbox-event-id', 'present', 'missing'),
  ],
  'sha256-secret-last': [SIGNING, ...callbacksOf(TYPES, 'callback', 'signature', 'sandbox', 'request-style (SHA-256, hex, secret last-slot, X-Signature)')],
  'hmac-sha512-base64': [SIGNING, ...callbacksOf(TYPES, 'callback', 'signature', 'sandbox', 'request-style (HMAC-SHA512, base64, X-Signature)')],
  'md5-colon': [SIGNING, ...callbacksOf(TYPES, 'callback', 'signature', 'sandbox', 'request-style (MD5, hex, ":", secret last-slot, X-Signature)')],
  'standard-webhooks': callbacksOf(TYPES, 'callback', 'signature', 'sandbox', 'standard-webhooks'),
};

describe('drift against a sandbox', () => {
  it('with the same profile: no difference in 5 consecutive runs, callbacks included', async () => {
    const target = await startSandbox();
    try {
      for (let run = 1; run <= 5; run++) {
        const report = await driftAgainst(target.url, { confirm: (id) => target.admin.transition(id, 'confirmed') });
        expect({ run, differences: report.differences, skipped: report.skipped, stopped: report.stopped }).toEqual({ run, differences: [], skipped: [], stopped: undefined });
        expect(report.probes).toBe(27);
        expect(report.adoptions).toEqual([]);
      }
    } finally {
      await target.close();
    }
  });

  it.for(BUILTIN_PROFILE_NAMES.filter((name) => name !== 'sandbox'))('with the profile %s: exactly what it changes, and none once --write-profile is followed', async (name, { folder }) => {
    const target = await startSandbox({ profile: name });
    try {
      const confirm = (id: string) => target.admin.transition(id, 'confirmed');
      const first = await driftAgainst(target.url, { confirm });
      expect(first.skipped).toEqual([]);
      expect([...first.differences.map(row)].sort()).toEqual([...EXPECTED[name]].sort());

      const file = join(folder, 'provider.yaml');
      writeFileSync(file, writeProfile(loadProfile('sandbox'), 'sandbox', first.adoptions, { target: target.url, date: '2026-01-01', notAdopted: first.not_adoptable, unseen: first.cannot_see }));
      expect(first.not_adoptable).toEqual([]);
      const written = loadProfile(file);
      const builtin = loadProfile(name);
      expect(written.requests.signature).toEqual(builtin.requests.signature);
      expect(written.callbacks.signature).toBe(builtin.callbacks.signature);
      expect(written.callbacks.sandbox_headers).toBe(builtin.callbacks.sandbox_headers);
      expect(written.requests.duplicate_order_names_trade).toBe(builtin.requests.duplicate_order_names_trade);
      expect(readFileSync(file, 'utf8')).toContain('extends: sandbox');

      const second = await driftAgainst(target.url, { profile: file, confirm });
      expect(second.differences).toEqual([]);
      expect(second.skipped).toEqual([]);
    } finally {
      await target.close();
    }
  });
});
