import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { DEMO, errorOf, makeSandbox, p2pBody, type TestSandbox } from './support.js';

/** Shared by test/in-process/hostile.test.ts and test/hostile-prototype.test.ts. */
export const CREATE = '/api/v1/trades/deposit/create';
export const BUILD = '/api/v1/trades/deposit/build';

const PROTOTYPES = [Object.prototype, Array.prototype, Function.prototype];
/** The own keys of the built-in prototypes: pollution shows up as a change here. */
export const prototypeShape = () => PROTOTYPES.map((proto) => Reflect.ownKeys(proto).map(String).sort().join(','));

export interface Refusal {
  status: number;
  code: string;
  message: RegExp;
  field?: string;
}

export const json = (value: unknown) => JSON.stringify(value);
export const nested = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
export const invalidJson = (message: RegExp): Refusal => ({ status: 422, code: 'invalid_json', message });
export const invalid = (field: string, message: RegExp): Refusal => ({ status: 422, code: 'validation_failed', message, field });

/**
 * Registers the hooks of a hostile-input file: one in-memory sandbox (manual clock) holding a
 * trade, and after every test a check that no built-in prototype changed. `refused()` sends a
 * body and expects the refusal with stored data left byte-identical.
 */
export function hostileSuite() {
  const suite = {
    t: undefined as unknown as TestSandbox,
    prototypes: prototypeShape(),
    /** Sends `body` (a raw string or bytes) as the demo merchant and expects the refusal. */
    async refused(path: string, body: string | Uint8Array<ArrayBuffer>, expected: Refusal, headers: Record<string, string> = {}): Promise<void> {
      const { t } = suite;
      await t.sandbox.store.commit();
      const stored = JSON.stringify(t.sandbox.store.snapshot());
      suite.prototypes = prototypeShape();
      const res = await t.app.request(path, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Auth': DEMO.token, ...headers }, body });
      expect(res.status, `${path} ${typeof body === 'string' ? body.slice(0, 80) : '(bytes)'}`).toBe(expected.status);
      const error = await errorOf(res);
      expect(error).toMatchObject({ status: expected.status, code: expected.code });
      expect(error.message).toMatch(expected.message);
      if (expected.field !== undefined) expect(error.details.map((d) => d.field)).toContain(expected.field);
      await t.sandbox.store.commit();
      expect(JSON.stringify(t.sandbox.store.snapshot()), 'stored data changed').toBe(stored);
    },
  };
  beforeAll(async () => {
    suite.t = await makeSandbox({ clock: 'manual' });
    // A trade that exists before every case, so "nothing changed" covers an existing one too.
    expect((await suite.t.post(CREATE, p2pBody({ callback_url: 'http://127.0.0.1:1/cb' }))).status).toBe(201);
  });
  afterAll(() => suite.t.close());
  afterEach(() => {
    expect(prototypeShape(), 'a prototype was changed').toEqual(suite.prototypes);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });
  return suite;
}
