import { describe, expect, it, vi } from 'vitest';
import { MemoryAdapter } from '../store/adapter.js';
import { Store } from '../store/store.js';
import { Clock } from './clock.js';

const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);

async function store() {
  return Store.open(new MemoryAdapter());
}

describe('Clock', () => {
  it('real: follows the wall clock plus what was advanced', async () => {
    let wall = T0;
    const clock = new Clock('real', await store(), () => wall);
    expect(clock.now()).toBe(T0);
    wall += 1000;
    expect(clock.now()).toBe(T0 + 1000);
    clock.advance(60_000);
    expect(clock.now()).toBe(T0 + 61_000);
    wall += 1000;
    expect(clock.now()).toBe(T0 + 62_000);
  });

  it('manual: stands still until advanced', async () => {
    let wall = T0;
    const clock = new Clock('manual', await store(), () => wall);
    wall += 5_000;
    expect(clock.now()).toBe(T0);
    clock.advance(10 * 60_000);
    expect(clock.nowIso()).toBe('2026-01-01T12:10:00.000Z');
  });

  it('advanceTo never moves backwards', async () => {
    const clock = new Clock('manual', await store(), () => T0);
    expect(clock.advanceTo(T0 + 500)).toBe(T0 + 500);
    expect(clock.advanceTo(T0)).toBe(T0 + 500);
    expect(() => clock.advance(-1)).toThrow(RangeError);
    expect(() => clock.advance(Number.NaN)).toThrow(RangeError);
  });

  it('keeps its time in the store, so a new clock over the same store resumes it', async () => {
    const shared = await store();
    let wall = T0;
    new Clock('manual', shared, () => wall).advance(90_000);
    wall += 3_600_000;
    expect(new Clock('manual', shared, () => wall).now()).toBe(T0 + 90_000);
  });

  it('manual: freezes again at the wall clock after the store is cleared', async () => {
    const shared = await store();
    let wall = T0;
    const clock = new Clock('manual', shared, () => wall);
    clock.advance(1_000);
    shared.clear();
    wall = T0 + 50_000;
    expect(clock.now()).toBe(T0 + 50_000);
    wall = T0 + 99_000;
    expect(clock.now()).toBe(T0 + 50_000);
  });

  it('manual to real keeps the manual lead, so time never goes back across a restart', async () => {
    const shared = await store();
    let wall = T0;
    const manual = new Clock('manual', shared, () => wall);
    manual.advance(10 * 24 * 3_600_000);
    const stoppedAt = manual.now();
    wall = T0 + 60_000; // the restart takes a minute of wall time
    const real = new Clock('real', shared, () => wall);
    expect(real.now()).toBe(stoppedAt);
    expect(real.aheadOfWall()).toBe(10 * 24 * 3_600_000 - 60_000);
    wall += 1_000;
    expect(real.now()).toBe(stoppedAt + 1_000);
    // ... and back to manual: it starts where the real clock is.
    const again = new Clock('manual', shared, () => wall);
    expect(again.now()).toBe(stoppedAt + 1_000);
  });

  it('manual to real never moves a real clock back either when the manual time is behind it', async () => {
    const shared = await store();
    let wall = T0;
    new Clock('real', shared, () => wall).advance(5_000);
    new Clock('manual', shared, () => wall); // freezes at T0 + 5 s
    wall = T0 + 3_600_000;
    expect(new Clock('real', shared, () => wall).now()).toBe(T0 + 3_605_000);
  });
});

describe('Clock.nowIso', () => {
  it('keeps its own last text: two clocks at other times (two workspaces) do not take turns over one entry', async () => {
    const a = new Clock('manual', await store(), () => T0);
    const b = new Clock('manual', await store(), () => T0 + 3_600_000);
    const format = vi.spyOn(Date.prototype, 'toISOString');
    let texts: string[];
    try {
      texts = [a.nowIso(), b.nowIso(), a.nowIso(), b.nowIso()];
      expect(format).toHaveBeenCalledTimes(2); // once per clock, not once per read
    } finally {
      format.mockRestore();
    }
    expect(texts).toEqual(['2026-01-01T12:00:00.000Z', '2026-01-01T13:00:00.000Z', '2026-01-01T12:00:00.000Z', '2026-01-01T13:00:00.000Z']);
  });

  it('formats a millisecond once for every clock that stands at it (real clocks of busy workspaces), and never gives one clock another time', async () => {
    let wall = T0 + 7;
    const clocks = await Promise.all(Array.from({ length: 5 }, async () => new Clock('real', await store(), () => wall)));
    const other = new Clock('manual', await store(), () => T0 + 60_000);
    const format = vi.spyOn(Date.prototype, 'toISOString');
    let texts: string[];
    try {
      texts = clocks.map((clock) => clock.nowIso());
      expect(format).toHaveBeenCalledTimes(1);
      texts.push(other.nowIso());
      wall += 1;
      texts.push(...clocks.map((clock) => clock.nowIso()));
      expect(format).toHaveBeenCalledTimes(3);
    } finally {
      format.mockRestore();
    }
    expect(texts).toEqual([...Array(5).fill('2026-01-01T12:00:00.007Z'), '2026-01-01T12:01:00.000Z', ...Array(5).fill('2026-01-01T12:00:00.008Z')]);
  });
});
