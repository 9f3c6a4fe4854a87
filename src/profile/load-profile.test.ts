import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { it } from '../../test/temp-folder.js';
import { formatProblem } from '../config/yaml-issues.js';
import { BUILTIN_PROFILE_NAMES } from './builtin-profile-names.js';
import { loadProfile, parseProfile } from './load-profile.js';
import { mergeProfile } from './merge-profile.js';
import { ProfileError } from './profile-error.js';

/** The problems of a profile, as `file:line:column: key: message` lines. */
function problems(text: string, file = 'my-provider.yaml'): string[] {
  try {
    parseProfile(text, file);
  } catch (error) {
    if (error instanceof ProfileError) return error.problems.map(formatProblem);
    throw error;
  }
  return [];
}

describe('loadProfile', () => {
  it('loads every built-in by name', () => {
    for (const name of BUILTIN_PROFILE_NAMES) expect(loadProfile(name).name).toBe(name);
  });

  it('loads a YAML file by its path, applying extends: the file replaces keys, lists whole', ({ folder }) => {
    const file = join(folder, 'my-provider.yaml');
    writeFileSync(file, 'name: my-provider\nextends: sandbox\nrequests:\n  signature:\n    algorithm: sha512\n    secret: first-slot\ncallbacks:\n  retries: [2s]\n');
    const profile = loadProfile(file);
    const sandbox = loadProfile('sandbox');
    expect(profile).toEqual({
      ...sandbox,
      name: 'my-provider',
      extends: 'sandbox',
      requests: { ...sandbox.requests, signature: { ...sandbox.requests.signature, algorithm: 'sha512', secret: 'first-slot' } },
      callbacks: { ...sandbox.callbacks, retries: [2_000] },
    });
  });

  it('loads a JSON file with the same parser, $schema allowed, and places its problems on lines too', ({ folder }) => {
    const good = join(folder, 'my-provider.json');
    writeFileSync(good, JSON.stringify({ $schema: './profile.schema.json', name: 'json-provider', extends: 'strict', callbacks: { acknowledge: 'ok-text' } }, null, '\t'));
    expect(loadProfile(good).callbacks).toMatchObject({ acknowledge: 'ok-text', sandbox_headers: false });
    const bad = join(folder, 'bad.json');
    writeFileSync(bad, '{\n  "name": "json-provider",\n  "extends": "sandbox",\n  "callbacks": {\n    "acknowledge": "ok"\n  }\n}\n');
    expect(() => loadProfile(bad)).toThrow(`${bad}:5:20: callbacks.acknowledge: must be what acknowledges a callback: 2xx | ok-text | code-zero; got "ok"`);
  });

  it('lists the built-ins for an unknown name, with the closest one', () => {
    expect(() => loadProfile('stric')).toThrow(
      'stric: is not a built-in profile; did you mean strict? The built-ins: sandbox, sha256-secret-last, hmac-sha512-base64, md5-colon, standard-webhooks, strict. A profile file is named by its path, e.g. ./my-provider.yaml',
    );
    expect(() => loadProfile('paypal')).toThrow(/paypal: is not a built-in profile\. The built-ins: sandbox, /);
  });

  it('says a file that cannot be read cannot be read', ({ folder }) => {
    expect(() => loadProfile(join(folder, 'none.yaml'))).toThrow(/none\.yaml: cannot be read: ENOENT/);
  });

  it('returns a profile no caller can change', () => {
    const profile = loadProfile('sandbox');
    expect(Object.isFrozen(profile.callbacks.retries)).toBe(true);
    expect(() => {
      (profile.callbacks as { acknowledge: string }).acknowledge = 'ok-text';
    }).toThrow(TypeError);
  });
});

describe('the problems of a profile file', () => {
  it('a wrong key: file:line:column, the key, did you mean, the keys allowed there', () => {
    expect(problems('name: my-provider\nextends: sandbox\ncallbacks:\n  acknowlege: ok-text\n')).toEqual([
      'my-provider.yaml:4:3: callbacks.acknowlege: is not a field here; did you mean acknowledge? Fields here: signature, acknowledge, retries, send_on, sandbox_headers',
    ]);
  });

  it('a wrong value: file:line:column, the key, what is allowed, did you mean', () => {
    expect(problems('name: my-provider\nextends: sandbox\nrequests:\n  signature:\n    algorithm: sha-256\n')).toEqual([
      'my-provider.yaml:5:16: requests.signature.algorithm: must be a signature algorithm: hmac-sha256 | hmac-sha512 | sha256 | sha512 | sha1 | md5; got "sha-256"; did you mean sha256?',
    ]);
    expect(problems('name: my-provider\nextends: sandbox\ncallbacks:\n  sandbox_headers: no\n')).toEqual([
      'my-provider.yaml:4:20: callbacks.sandbox_headers: must be true or false (whether callbacks carry X-Sandbox-Event-Id, X-Sandbox-Attempt and X-Sandbox-Workspace); got "no". Hint: no is read as the string "no" (YAML 1.2 has only true and false as booleans); write false',
    ]);
    expect(problems('name: my-provider\nextends: sandbox\ncallbacks:\n  retries: [1s, soon]\n')).toEqual([
      'my-provider.yaml:4:3: callbacks.retries: "soon" is not a duration such as "500ms", "10s", "5m", "2h", "1d", or a number of milliseconds',
    ]);
    expect(problems('name: my-provider\nextends: sandbox\nstates:\n  intermediate: [processing, created]\n')).toEqual([
      "my-provider.yaml:4:30: states.intermediate[1]: must not be one of the sandbox's own states (created, ecom, confirmed, canceled, expired)",
    ]);
  });

  it('an unknown built-in in extends: its line and column, the built-ins', () => {
    expect(problems('name: my-provider\nextends: sandbx\n')).toEqual([
      'my-provider.yaml:2:10: extends: must be a built-in profile: sandbox | sha256-secret-last | hmac-sha512-base64 | md5-colon | standard-webhooks | strict; got "sandbx"; did you mean sandbox?',
    ]);
  });

  it('a bad errors.body template: an unknown placeholder at its own line and column', () => {
    const text = 'name: my-provider\nextends: sandbox\nerrors:\n  body: >-\n    {"ok": false,\n     "error": {{mesage}}}\n';
    expect(problems(text)).toEqual(['my-provider.yaml:6:15: errors.body: {{mesage}} is no placeholder; did you mean {{message}}? The placeholders are {{status}}, {{code}}, {{message}}, {{details}}']);
    expect(problems('name: my-provider\nextends: sandbox\nerrors:\n  body: \'{"message":"{{message}}"}\'\n')[0]).toMatch(
      /^my-provider\.yaml:4:9: errors\.body: is not JSON once filled in with a sample error .*write \{\{message\}\}, not "\{\{message\}\}"\.$/,
    );
  });

  it('a secret place that does not suit the algorithm, where one of them is inherited: at the key the file holds', () => {
    expect(problems('name: my-provider\nextends: sandbox\nrequests:\n  signature:\n    algorithm: md5\n')).toEqual([
      'my-provider.yaml:5:16: requests.signature.secret: must be last-slot or first-slot with md5 (a plain hash has no key: the secret goes into the string as one more slot); key is for hmac-sha256 and hmac-sha512 (requests.signature.secret is "key", from extends: sandbox)',
    ]);
    expect(problems('name: my-provider\nextends: md5-colon\nrequests:\n  signature:\n    algorithm: hmac-sha256\n    secret: last-slot\n')).toEqual([
      'my-provider.yaml:6:13: requests.signature.secret: must be key with hmac-sha256 (an HMAC takes the secret as its key); last-slot and first-slot are for the plain hashes sha256, sha512, sha1 and md5',
    ]);
  });

  it('a key neither the file nor a built-in gives: missing, and how to start from a built-in', () => {
    const lines = problems('name: my-provider\ncallbacks:\n  signature: none\n');
    expect(lines).toContain(
      'my-provider.yaml:2:1: callbacks.acknowledge: is missing; it must be what acknowledges a callback: 2xx | ok-text | code-zero. Or start from a built-in with "extends: sandbox" and write only what differs',
    );
    expect(lines.some((line) => line.startsWith('my-provider.yaml:1:1: requests: is missing; it must be a map of signature, duplicate_order_names_trade.'))).toBe(true);
    expect(problems('extends: sandbox\n')).toEqual(['my-provider.yaml:1:1: name: is missing; it must be the profile\'s name in quotes or plain, e.g. "my-provider"']);
  });

  it('text that is not YAML, an empty file, a header HTTP owns', () => {
    expect(problems('name: [unclosed\n')[0]).toMatch(/^my-provider\.yaml:\d+:\d+: is not valid YAML or JSON: /);
    expect(problems('')).toEqual(['my-provider.yaml:1:1: is empty; a profile needs at least a name, e.g. "name: my-provider" and "extends: sandbox"']);
    expect(problems('name: p\nextends: sandbox\nrequests:\n  signature:\n    header: Content-Type\n')).toEqual([
      'my-provider.yaml:5:13: requests.signature.header: is a header HTTP or the sandbox uses for something else; choose another, e.g. X-Signature',
    ]);
  });
});

describe('mergeProfile', () => {
  it('merges maps key by key, replaces lists whole, skips undefined, and changes neither input', () => {
    const base = { a: { b: 1, c: [1, 2] }, d: 'x' };
    const overlay = { a: { c: [3] }, d: undefined, e: true };
    expect(mergeProfile(base, overlay)).toEqual({ a: { b: 1, c: [3] }, d: 'x', e: true });
    expect(base).toEqual({ a: { b: 1, c: [1, 2] }, d: 'x' });
  });
});
