import { describe, expect, it } from 'vitest';
import { UUID_PATTERN } from '../../test/support.js';
import { createRandom, pick } from './random.js';

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
