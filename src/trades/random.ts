import { randomFillSync, randomInt } from 'node:crypto';
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
    return { int: (min, max) => randomInt(min, max + 1), uuid: cryptoUuids() };
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

const HEX = Buffer.from('0123456789abcdef', 'latin1');

/**
 * Crypto-random version 4 UUIDs, as crypto.randomUUID makes them, but each as one flat string,
 * drawn from this generator's own pool of random bytes (256 ids' worth, refilled at once, as
 * crypto.randomUUID does): each sandbox has its own pool, like every other cache.
 * randomUUID joins 20 pieces with `+`, and V8 keeps such a string as a chain of pieces: the
 * first lookup flattens it, and the stored id stays a chain that points at the flat copy.
 * Every create looks its new id up, stores it in a table of every trade, writes and answers
 * it, and each of these is cheaper with a flat string than with a chain.
 */
export function cryptoUuids(fill: (bytes: Buffer) => void = randomFillSync): () => string {
  const entropy = Buffer.alloc(16 * 256);
  let used = entropy.length;
  const text = Buffer.alloc(36, 0x2d); // the dashes stay
  return () => {
    if (used === entropy.length) {
      fill(entropy);
      used = 0;
    }
    const at = used;
    used += 16;
    entropy[at + 6] = ((entropy[at + 6] as number) & 0x0f) | 0x40; // version 4
    entropy[at + 8] = ((entropy[at + 8] as number) & 0x3f) | 0x80; // variant 10
    let out = 0;
    for (let i = 0; i < 16; i++) {
      if (i === 4 || i === 6 || i === 8 || i === 10) out++;
      const byte = entropy[at + i] as number;
      text[out++] = HEX[byte >> 4] as number;
      text[out++] = HEX[byte & 0x0f] as number;
    }
    return text.toString('latin1');
  };
}
