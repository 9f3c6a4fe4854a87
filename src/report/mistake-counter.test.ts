import { describe, expect, it } from 'vitest';
import { MistakeCounter } from './mistake-counter.js';

const M = '6f1c2a9e-3b7d-4c52-9a1e-2d4b8f0c7e51';
const fastPolls = (counter: MistakeCounter) => counter.report().merchants.find((m) => m.merchant === M)?.fast_polls ?? 0;

describe('MistakeCounter reads', () => {
  it('a read less than a second after the previous one is a fast poll, across the generations it keeps', () => {
    const counter = new MistakeCounter();
    counter.read(M, 'a', 0);
    counter.read(M, 'b', 900);
    counter.read(M, 'a', 1_000); // a second after: fine (and a new generation starts here)
    counter.read(M, 'b', 1_500); // 600 ms after its read in the previous generation: too fast
    expect(fastPolls(counter)).toBe(1);
    counter.read(M, 'B', 1_600); // trade ids in either case are one trade: too fast
    expect(fastPolls(counter)).toBe(2);
  });

  it('a read long after the previous one is not a fast poll, and forgetReads forgets every read', () => {
    const counter = new MistakeCounter();
    counter.read(M, 'a', 0);
    counter.read(M, 'x', 5_000);
    counter.read(M, 'y', 10_000);
    counter.read(M, 'a', 10_500); // 10.5 s later
    counter.read(M, 'y', 10_600); // too fast
    counter.forgetReads();
    counter.read(M, 'y', 10_700); // forgotten: a first read
    expect(fastPolls(counter)).toBe(1);
  });
});
