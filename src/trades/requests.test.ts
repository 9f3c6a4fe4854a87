import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildRequestSchema, createRequestSchema } from './requests.js';

// The API validates with the schemas as `z.compile` builds them (src/http/validation.ts); the
// refusals must stay word for word those of the ordinary parser, and the accepted values equal.
const MERCHANT = '6f1c2a9e-3b7d-4c52-9a1e-2d4b8f0c7e51';
const text = fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom('', '  ', 'a\u0000b', '\ud800', 'x'.repeat(256)));
const anything = fc.oneof(text, fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.constant(undefined), fc.constant([]), fc.constant({}));
const field = <T>(valid: fc.Arbitrary<T>) => fc.option(fc.oneof({ weight: 8, arbitrary: valid }, { weight: 1, arbitrary: anything }), { nil: undefined, freq: 10 });
const body = (types: fc.Arbitrary<string>) =>
  fc.record(
    {
      merchant: field(fc.constantFrom(MERCHANT, MERCHANT.toUpperCase())),
      order: field(fc.string({ minLength: 1, maxLength: 8 })),
      amount_cents: field(fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 1, max: 10_000_000_000 }) }, { weight: 1, arbitrary: fc.constantFrom(0, -1, 3.12, 2 ** 53, '312') })),
      amount_currency: field(fc.oneof({ weight: 6, arbitrary: fc.constant('RUB') }, { weight: 1, arbitrary: fc.constant('rub') })),
      type: field(fc.oneof({ weight: 6, arbitrary: types }, { weight: 1, arbitrary: fc.constantFrom('any_bank', 'nspk', 'ecom') })),
      customer: field(fc.oneof(fc.string({ maxLength: 5 }), fc.constant(null))),
      cusotmer: fc.option(fc.oneof(fc.string({ maxLength: 5 }), fc.constant(null)), { nil: undefined, freq: 2 }),
      callback_url: field(fc.oneof(fc.constantFrom('https://shop.example/cb', 'http://127.0.0.1:1/x', 'ftp://x', ''), fc.constant(null))),
      return_url: field(fc.constantFrom('https://shop.example/thanks', 'not a url')),
    },
    { requiredKeys: [] },
  );

describe('the compiled request schemas', () => {
  it.each([
    ['create', createRequestSchema, fc.constantFrom('any_bank', 'nspk')],
    ['build', buildRequestSchema, fc.constant('ecom')],
  ] as const)('%s: accept and refuse exactly as the ordinary parser, with the same issues', (_name, schema, types) => {
    const compiled = z.compile(schema);
    let accepted = 0;
    fc.assert(
      fc.property(body(types), (value) => {
        const plain = schema.safeParse(value);
        const fast = compiled.safeParse(value);
        expect(fast.success).toBe(plain.success);
        if (plain.success) {
          accepted++;
          expect(fast.data).toStrictEqual(plain.data);
          expect(Object.keys(fast.data ?? {})).toEqual(Object.keys(plain.data));
        } else {
          expect(fast.error?.issues).toStrictEqual(plain.error.issues);
        }
      }),
      { numRuns: 2000, seed: 20261124 },
    );
    // Both outcomes were exercised, not only refusals.
    expect(accepted).toBeGreaterThan(30);
  });
});
