import { describe, expect, it } from 'vitest';
import { POLLING_READS, POLLING_WINDOW_MS, PollingWatch } from './polling-watch.js';

const reads = (watch: PollingWatch, trade: string, times: number[]) => times.map((at) => watch.read(trade, at)).filter(Boolean).length;

describe('PollingWatch', () => {
  it('a correct client is never flagged: a read at once, a read after the callback, several within a second', () => {
    const watch = new PollingWatch();
    expect(reads(watch, 'a', [0, 5, 10, 400, 800, 999, 5_000])).toBe(0);
    // One read a second for ten minutes is 60 reads a minute: not more than 60.
    expect(
      reads(
        watch,
        'b',
        Array.from({ length: 600 }, (_, i) => i * 1_000),
      ),
    ).toBe(0);
  });

  it('more than 60 reads of one trade within a minute of real time is flagged once per window', () => {
    const watch = new PollingWatch();
    const burst = Array.from({ length: POLLING_READS + 1 }, (_, i) => i * 100);
    expect(reads(watch, 'a', burst)).toBe(1);
    expect(reads(watch, 'A', [6_200, 6_300])).toBe(0); // same window, already flagged (ids in either case are one trade)
    expect(reads(watch, 'b', burst.slice(1))).toBe(0); // another trade: its own count
    const next = burst.map((at) => at + POLLING_WINDOW_MS + 1_000);
    expect(reads(watch, 'a', next)).toBe(1); // a new window, across the generations kept
  });

  it('forget() starts every trade afresh', () => {
    const watch = new PollingWatch();
    expect(
      reads(
        watch,
        'a',
        Array.from({ length: POLLING_READS }, (_, i) => i),
      ),
    ).toBe(0);
    watch.forget();
    expect(reads(watch, 'a', [100])).toBe(0);
  });
});
