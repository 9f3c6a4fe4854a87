import { randomUUID, randomInt } from 'node:crypto';
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';

/** Source of ids and requisites: crypto-random by default, repeatable with a seed. */
export interface Random {
  /** An integer in [min, max], both included. */
  int(min: number, max: number): number;
  uuid(): string;
}

export function createRandom(seed?: number): Random {
  if (seed === undefined) {
    return { int: (min, max) => randomInt(min, max + 1), uuid: () => randomUUID() };
  }
  const rng = xoroshiro128plus(seed);
  const int = (min: number, max: number): number => uniformInt(rng, min, max);
  return {
    int,
    uuid() {
      // RFC 9562 version 4 layout, drawn from the seeded generator.
      const hex = Array.from({ length: 32 }, () => int(0, 15).toString(16));
      hex[12] = '4';
      hex[16] = (8 + int(0, 3)).toString(16);
      const s = hex.join('');
      return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
    },
  };
}

export function pick<T>(random: Random, items: readonly T[]): T {
  const item = items[random.int(0, items.length - 1)];
  if (item === undefined) throw new Error('pick() from an empty list');
  return item;
}
