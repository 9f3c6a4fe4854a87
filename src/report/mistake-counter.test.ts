import { describe, expect, it } from 'vitest';
import { MistakeCounter } from './mistake-counter.js';

const M = '6f1c2a9e-3b7d-4c52-9a1e-2d4b8f0c7e51';

describe('MistakeCounter reads', () => {
  it('reading a trade is never a mistake, however often: sustained polling is a note', () => {
    const counter = new MistakeCounter();
    for (let i = 0; i < 60; i++) counter.read(M, 'a', i); // 60 reads within a minute: nothing
    expect(counter.report()).toMatchObject({ total: 0, merchants: [], notes: [] });
    counter.read(M, 'A', 61); // the 61st (ids in either case are one trade)
    const report = counter.report();
    expect(report.total).toBe(0);
    expect(report.merchants).toEqual([]);
    expect(report.notes).toMatchObject([{ merchant: M, id: 'sustained_polling', trade: 'a', count: 1 }]);
  });

  it('forgetReads forgets every read', () => {
    const counter = new MistakeCounter();
    for (let i = 0; i < 60; i++) counter.read(M, 'a', i);
    counter.forgetReads();
    counter.read(M, 'a', 100);
    expect(counter.report().notes).toEqual([]);
  });
});
