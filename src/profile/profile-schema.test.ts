import { describe, expect, it } from 'vitest';
import { loadProfile } from './load-profile.js';
import { MAX_RETRIES, profileFileSchema, profileSchema } from './profile-schema.js';

const sandbox = loadProfile('sandbox');
const messages = (result: { success: boolean; error?: { issues: Array<{ path: PropertyKey[]; message: string }> } }) =>
  result.error?.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`) ?? [];

describe('profileFileSchema', () => {
  it('needs only a name; every section may be left to extends, but no section takes a key it does not know', () => {
    expect(profileFileSchema.safeParse({ name: 'p' }).success).toBe(true);
    expect(profileFileSchema.safeParse({ name: 'p', requests: { signature: { encoding: 'base64' } } }).success).toBe(true);
    expect(messages(profileFileSchema.safeParse({ name: 'p', requests: { signature: { encoding: 'base64', key: 'x' } } }))).toEqual(['requests.signature: Unrecognized key: "key"']);
    expect(messages(profileFileSchema.safeParse({ name: 'p', profile: {} }))).toEqual([': Unrecognized key: "profile"']);
  });

  it('takes a name of letters, digits, ".", "_" and "-"', () => {
    expect(profileFileSchema.safeParse({ name: 'acme.v2_test-1' }).success).toBe(true);
    for (const name of ['', '-x', 'my provider', 'x'.repeat(65)]) expect(profileFileSchema.safeParse({ name }).success, name).toBe(false);
  });
});

describe('profileSchema', () => {
  it('accepts every built-in as resolved', () => {
    expect(profileSchema.parse(sandbox)).toEqual(sandbox);
  });

  it('bounds the retries: at most 20 waits of at most a week each; [] sends once', () => {
    const retries = (list: unknown) => profileSchema.safeParse({ ...sandbox, callbacks: { ...sandbox.callbacks, retries: list } });
    expect(retries([]).success).toBe(true);
    expect(retries('1s, 5s').data?.callbacks.retries).toEqual([1_000, 5_000]);
    expect(messages(retries(Array.from({ length: MAX_RETRIES + 1 }, () => '1s')))).toEqual([`callbacks.retries: must list at most ${MAX_RETRIES} waits`]);
    expect(messages(retries(['8d']))).toEqual(['callbacks.retries: must hold waits of at most 7d each']);
  });

  it('takes intermediate states that are new, distinct and at most five', () => {
    const states = (list: unknown) => messages(profileSchema.safeParse({ ...sandbox, states: { intermediate: list } }));
    expect(states(['processing', 'on_hold'])).toEqual([]);
    expect(states(['processing', 'processing'])).toEqual(['states.intermediate: must not name a state twice']);
    expect(states(['Processing'])).toEqual(['states.intermediate.0: must be a lowercase state name (letters, digits, _), e.g. processing']);
    expect(states(['a', 'b', 'c', 'd', 'e', 'f'])).toEqual(['states.intermediate: must list at most 5 states']);
  });

  it('keeps the signature out of the headers HTTP and the sandbox use', () => {
    const header = (name: string) => profileSchema.safeParse({ ...sandbox, requests: { ...sandbox.requests, signature: { ...sandbox.requests.signature, header: name } } }).success;
    expect(header('X-Signature')).toBe(true);
    expect(header('Authorization')).toBe(true);
    for (const name of ['content-type', 'Host', 'X-Sandbox-Event-Id', 'webhook-signature', 'X Signature', '']) expect(header(name), name).toBe(false);
  });
});
