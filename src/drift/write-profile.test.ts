import { describe, expect, it } from 'vitest';
import { loadProfile, parseProfile } from '../profile/load-profile.js';
import { adoptedProfile, profileNameFor, writeProfile, type Adoption } from './write-profile.js';

const ABOUT = { target: 'https://test.provider.example', date: '2026-01-01', notAdopted: ['create.nspk: state state: sandbox created, target new'], unseen: ['what acknowledges a callback'] };

describe('writeProfile', () => {
  it('extends the base built-in with the adopted keys, each commented with the probe that showed it', () => {
    const adoptions: Adoption[] = [
      { key: 'requests.signature', value: loadProfile('md5-colon').requests.signature, probe: 'create.any_bank', why: 'the target accepts requests signed as md5-colon signs them' },
      { key: 'callbacks.signature', value: 'standard-webhooks', probe: 'callback.nspk', why: "the target's callbacks verify as standard-webhooks" },
      { key: 'errors.body', value: '{"ok":false,"code":{{code}},"text":{{message}}}', probe: 'create.missing_order', why: 'another shape' },
    ];
    const text = writeProfile(loadProfile('sandbox'), 'sandbox', adoptions, ABOUT);
    expect(text).toContain('# Written by deposit-sandbox drift against https://test.provider.example on 2026-01-01, starting from the profile sandbox.');
    expect(text).toContain('# - create.nspk: state state: sandbox created, target new');
    expect(text).toContain(
      'name: drift-test.provider.example\nextends: sandbox\nrequests:\n  # create.any_bank: the target accepts requests signed as md5-colon signs them\n  signature:\n    algorithm: md5\n',
    );
    expect(text).toContain("  # callback.nspk: the target's callbacks verify as standard-webhooks\n  signature: standard-webhooks\n");
    expect(text).not.toContain('retries');
    const read = parseProfile(text, 'provider.yaml');
    expect(read.requests.signature).toEqual(loadProfile('md5-colon').requests.signature);
    expect(read.callbacks.signature).toBe('standard-webhooks');
    expect(read.errors.body).toBe('{"ok":false,"code":{{code}},"text":{{message}}}');
  });

  it('keeps what a profile file said beyond its built-in, and writes every key when extends cannot say it', () => {
    const base = parseProfile('name: mine\nextends: hmac-sha512-base64\ncallbacks:\n  retries: [1s, 1500]\n', 'mine.yaml');
    const sandboxSigning = loadProfile('sandbox').requests.signature;
    const text = writeProfile(base, 'mine.yaml', [{ key: 'requests.signature', value: sandboxSigning, probe: 'create.any_bank', why: 'signed in the token header' }], ABOUT);
    // hmac-sha512-base64 has a signature header the new profile must not: no extends.
    expect(text).not.toContain('extends:');
    expect(text).toContain('retries: [ 1s, 1500 ]');
    const read = parseProfile(text, 'provider.yaml');
    expect(JSON.stringify([read.requests, read.callbacks, read.errors, read.states])).toBe(JSON.stringify([{ ...base.requests, signature: sandboxSigning }, base.callbacks, base.errors, base.states]));
  });

  it('says so when nothing was adopted, and names the profile after the target', () => {
    const text = writeProfile(loadProfile('strict'), 'strict', [], ABOUT);
    expect(text).toContain('The target showed nothing a profile can say otherwise.');
    expect(parseProfile(text).requests.duplicate_order_names_trade).toBe(false);
    expect(adoptedProfile(loadProfile('strict'), [])).toEqual(loadProfile('strict'));
    expect(profileNameFor('http://127.0.0.1:4242/w/qa')).toBe('drift-127.0.0.1-4242');
    expect(profileNameFor('not a url')).toBe('drift-target');
  });
});
