import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, makeSandbox, p2pBody, type TestSandbox } from '../../test/support.js';

const CREATE = '/api/v1/trades/deposit/create';

let t: TestSandbox;
beforeAll(async () => {
  t = await makeSandbox();
});
afterAll(() => t.close());

/** Keys with the characters that make JSON strings hard to scan: quotes, backslashes, colons, escapes. */
const key = fc.string({ unit: fc.constantFrom('a', 'b', '"', '\\', ':', ' ', '{', '[', 'я', '\u0001'), maxLength: 4 });
const space = fc.constantFrom('', ' ', '\n', '\t ', '\r\n');

describe('duplicate keys in a JSON body', () => {
  it('are refused exactly when one object writes the same key twice, naming the first key written again', async () => {
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(key, space, fc.oneof(fc.string({ maxLength: 3 }), fc.integer())), { maxLength: 6 }), async (entries) => {
        runs++;
        const meta = entries.map(([name, gap, value]) => `${JSON.stringify(name)}${gap}:${gap}${JSON.stringify(value)}`).join(',');
        const text = JSON.stringify(p2pBody()).replace('{', `{"meta":{${meta}},`);
        const seen = new Set<string>();
        const twice = entries.map(([name]) => name).find((name) => seen.has(name) || !seen.add(name));
        const res = await t.post(CREATE, text);
        if (twice === undefined) {
          expect(res.status, await res.clone().text()).toBe(201);
        } else {
          expect(res.status).toBe(422);
          const error = await errorOf(res);
          expect(error.code).toBe('invalid_json');
          expect(error.details).toEqual([{ field: twice, message: 'appears more than once' }]);
        }
      }),
      {
        numRuns: 150,
        seed: 20261124,
        // Copies of one key written with and without space before the colon, and with an escaped quote.
        examples: [
          [
            [
              ['a', ' ', 1],
              ['a', '', 2],
            ],
          ],
          [
            [
              ['"', '\n', 'x'],
              ['b', '', 1],
              ['"', '', 'y'],
            ],
          ],
        ],
      },
    );
    expect(runs).toBe(150);
  });
});
