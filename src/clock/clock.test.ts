import { describe, expect, it } from 'vitest';
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
});
