import { describe, expect, it } from 'vitest';
import { DEMO, SECOND } from '../../test/support.js';
import { BUNDLED_FIXTURES, DEFAULT_POOL, FixturesError, loadFixtures, MerchantDirectory, parseFixtures } from './fixtures.js';

const merchant = { id: DEMO.id, name: 'Shop', token: 'token-123', secret: 'secret-123', rate: 90 };
const doc = (value: unknown) => JSON.stringify(value, null, 2);

function problem(text: string, file = '/tmp/my-merchants.json'): string {
  try {
    parseFixtures(text, file);
  } catch (error) {
    expect(error).toBeInstanceOf(FixturesError);
    return (error as Error).message;
  }
  throw new Error('expected a FixturesError');
}

describe('the bundled fixtures', () => {
  it('hold the demo and second merchants the README prints, with requisites pools', () => {
    const fixtures = loadFixtures();
    expect(BUNDLED_FIXTURES).toMatch(/fixtures[\\/]merchants\.json$/);
    expect(fixtures.merchants.map(({ id, token, secret, rate }) => ({ id, token, secret, rate }))).toEqual([DEMO, SECOND]);
    expect(new MerchantDirectory(fixtures).pool).toEqual(DEFAULT_POOL);
  });
});

describe('parseFixtures', () => {
  it('accepts merchants alone and falls back to the default requisites pool', () => {
    const directory = new MerchantDirectory(parseFixtures(doc({ merchants: [merchant] }), 'f.json'));
    expect(directory.pool).toEqual(DEFAULT_POOL);
    expect(directory.get(DEMO.id.toUpperCase())?.name).toBe('Shop');
    expect(directory.get(SECOND.id)).toBeUndefined();
    expect(directory.list()).toHaveLength(1);
  });

  it('names the file, the line and column of a JSON syntax error', () => {
    const message = problem('{\n  "merchants": [\n    { "id": "x", }\n  ]\n}');
    expect(message).toContain('Invalid fixtures file /tmp/my-merchants.json');
    expect(message).toMatch(/not valid JSON \(line 3, column 18\)/);
    expect(problem('{\n  "merchants": [\n')).toMatch(/not valid JSON \(line 2, column 17\): Unexpected end of JSON input/);
    expect(problem('{ "merchants": }')).toMatch(/not valid JSON: Unexpected token/);
  });

  it.each([
    ['merchants[0].id', { merchants: [{ ...merchant, id: 'shop-1' }] }, 'must be a UUID'],
    ['merchants[0].rate', { merchants: [{ ...merchant, rate: '92.5' }] }, 'must be a number, e.g. 92.5'],
    ['merchants[0].rate', { merchants: [{ ...merchant, rate: -1 }] }, 'must be a positive number'],
    ['merchants[0].token', { merchants: [{ ...merchant, token: 'short' }] }, 'at least 8 characters'],
    ['merchants[0].secret', { merchants: [{ ...merchant, secret: undefined }] }, ''],
    ['merchants[0].name', { merchants: [{ ...merchant, name: '' }] }, 'non-empty'],
    ['merchants', { merchants: [] }, 'at least one merchant'],
    ['merchants', {}, ''],
    ['merchants[1].id', { merchants: [merchant, { ...merchant, id: DEMO.id.toUpperCase() }] }, 'repeats the id of merchants[0]'],
    ['requisites.banks[0].bins[0]', { merchants: [merchant], requisites: { names: ['A'], banks: [{ name: 'B', bins: ['12345'] }] } }, 'must be 6 digits'],
    ['requisites.names', { merchants: [merchant], requisites: { names: [], banks: [{ name: 'B', bins: ['123456'] }] } }, 'at least one recipient name'],
  ])('names the field %s', (field, value, hint) => {
    const message = problem(doc(value));
    expect(message).toContain('/tmp/my-merchants.json');
    expect(message).toContain(`${field}: `);
    expect(message).toContain(hint);
  });
});

describe('fixtures errors carry file, line and column', () => {
  it('a stray key names itself, suggests the nearest field, and the missing one is reported where its object starts', () => {
    const text = doc({ merchants: [{ id: DEMO.id, name: 'Shop', tokn: 'token-123', secret: 'secret-123', rate: 90 }] });
    const message = problem(text);
    expect(message).toContain('/tmp/my-merchants.json:6:7: merchants[0].tokn: is not a field here; did you mean token? Fields here: id, name, token, secret, rate');
    expect(message).toContain('/tmp/my-merchants.json:3:5: merchants[0].token: is missing; it must be a string of at least 8 characters');
  });

  it('a wrong value is placed on the value itself, in compact JSON too', () => {
    expect(problem(doc({ merchants: [{ ...merchant, rate: '92.5' }] }))).toContain('/tmp/my-merchants.json:8:15: merchants[0].rate: must be a number, e.g. 92.5');
    const compact = `{"merchants":[${JSON.stringify(merchant)}],\n"requisites":{"names":["A"],"banks":[{"name":"B","bins":["12345"]}]}}`;
    const at = compact.split('\n')[1]!.indexOf('"12345"') + 1;
    expect(problem(compact)).toContain(`/tmp/my-merchants.json:2:${at}: requisites.banks[0].bins[0]: must be 6 digits`);
  });

  it('unknown top-level keys and unknown bank keys are errors too; "$schema" is allowed', () => {
    expect(problem(doc({ merchants: [merchant], requisite: 'latin' }))).toMatch(/:\d+:3: requisite: is not a field here; did you mean requisites\?/);
    expect(problem(doc({ merchants: [merchant], requisites: { names: ['A'], banks: [{ name: 'B', bins: ['123456'], bin: '1' }] } }))).toMatch(
      /requisites\.banks\[0\]\.bin: is not a field here; did you mean bins\?/,
    );
    expect(() => parseFixtures(doc({ $schema: './fixtures.schema.json', merchants: [merchant] }), 'f.json')).not.toThrow();
  });
});

describe('requisites pools', () => {
  it('are Cyrillic by default; "latin" picks the transliterated pool; a pool of your own is used as written', () => {
    const pool = (requisites: unknown) => new MerchantDirectory(parseFixtures(doc({ merchants: [merchant], ...(requisites !== undefined ? { requisites } : {}) }), 'f.json')).pool;
    expect(pool(undefined).names).toContain('Иван П.');
    expect(pool(undefined).banks.map((b) => b.name)).toContain('Сбербанк');
    expect(pool('cyrillic')).toEqual(pool(undefined));
    expect(pool('latin').names).toContain('Ivan Petrov');
    expect(pool('latin').banks.map((b) => b.name)).toContain('Sberbank');
    expect(pool({ names: ['Пётр Н.'], banks: [{ name: 'Банк', bins: ['220099'] }] })).toEqual({ names: ['Пётр Н.'], banks: [{ name: 'Банк', bins: ['220099'] }] });
    expect(problem(doc({ merchants: [merchant], requisites: 'greek' }))).toContain('requisites: must be "cyrillic" (the default), "latin", or a pool');
  });
});

describe('loadFixtures', () => {
  it('names a file that cannot be read', () => {
    expect(() => loadFixtures('/nonexistent/merchants.json')).toThrow(/Invalid fixtures file \/nonexistent\/merchants\.json:\n {2}cannot be read/);
  });
});
