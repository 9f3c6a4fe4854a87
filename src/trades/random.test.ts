import { describe, expect, it } from 'vitest';
import { UUID_PATTERN } from '../../test/support.js';
import { createRandom, cryptoUuids, pick } from './random.js';

const draw = (seed?: number) => {
  const random = createRandom(seed);
  return { uuids: Array.from({ length: 5 }, () => random.uuid()), ints: Array.from({ length: 20 }, () => random.int(0, 1000)) };
};

describe('createRandom', () => {
  it('repeats exactly for the same seed', () => {
    expect(draw(42)).toEqual(draw(42));
    expect(draw(0)).toEqual(draw(0));
  });

  it('differs between seeds, and without a seed', () => {
    expect(draw(42)).not.toEqual(draw(43));
    expect(draw().uuids).not.toEqual(draw().uuids);
  });

  it('makes version 4 UUIDs, seeded or not', () => {
    for (const seed of [undefined, 1, 99]) {
      for (const uuid of draw(seed).uuids) {
        expect(uuid).toMatch(UUID_PATTERN);
        expect(uuid[14]).toBe('4');
        expect('89ab').toContain(uuid[19]);
      }
    }
  });

  it('never repeats a crypto-random id, past the 256 drawn at once', () => {
    const random = createRandom();
    const ids = Array.from({ length: 1000 }, () => random.uuid());
    expect(new Set(ids).size).toBe(1000);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('int stays within its bounds, both included', () => {
    const random = createRandom(5);
    const seen = new Set<number>();
    for (let i = 0; i < 300; i++) {
      const n = random.int(3, 5);
      expect(n).toBeGreaterThanOrEqual(3);
      expect(n).toBeLessThanOrEqual(5);
      seen.add(n);
    }
    expect([...seen].sort()).toEqual([3, 4, 5]);
  });
});

describe('pick', () => {
  it('picks an item, and refuses an empty list', () => {
    const random = createRandom(3);
    expect(['a', 'b']).toContain(pick(random, ['a', 'b']));
    expect(() => pick(random, [])).toThrow('empty list');
  });
});

describe('cryptoUuids', () => {
  it("each generator draws from its own pool: one sandbox's ids never use or empty another's bytes", () => {
    const fills = { a: 0, b: 0 };
    const a = cryptoUuids((bytes) => {
      fills.a++;
      bytes.fill(0xaa);
    });
    const b = cryptoUuids((bytes) => {
      fills.b++;
      bytes.fill(0xbb);
    });
    expect(a()).toBe('aaaaaaaa-aaaa-4aaa-aaaa-aaaaaaaaaaaa');
    expect(b()).toBe('bbbbbbbb-bbbb-4bbb-bbbb-bbbbbbbbbbbb');
    for (let i = 0; i < 300; i++) a(); // past a's 256 ids: a refills, b does not
    expect(fills).toEqual({ a: 2, b: 1 });
    expect(b()).toBe('bbbbbbbb-bbbb-4bbb-bbbb-bbbbbbbbbbbb');
    expect(fills.b).toBe(1);
  });
});
