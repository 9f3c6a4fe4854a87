import { describe, expect, it } from 'vitest';
import { Limiter } from './limiter.js';

describe('Limiter', () => {
  it('runs at most max tasks at once, the rest in arrival order', async () => {
    const limiter = new Limiter(2);
    const releases: Array<() => void> = [];
    const started: number[] = [];
    const tasks = [1, 2, 3, 4].map((n) =>
      limiter.run(
        () =>
          new Promise<number>((resolve) => {
            started.push(n);
            releases.push(() => resolve(n));
          }),
      ),
    );
    await Promise.resolve();
    expect(started).toEqual([1, 2]);
    expect([limiter.running, limiter.waiting]).toEqual([2, 2]);
    releases.shift()!();
    await tasks[0];
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual([1, 2, 3]);
    for (const release of releases.splice(0)) release();
    await new Promise((resolve) => setImmediate(resolve));
    for (const release of releases.splice(0)) release();
    expect(await Promise.all(tasks)).toEqual([1, 2, 3, 4]);
    expect([limiter.running, limiter.waiting]).toEqual([0, 0]);
  });

  it('frees the slot when a task throws', async () => {
    const limiter = new Limiter(1);
    await expect(limiter.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await limiter.run(async () => 'next')).toBe('next');
    expect(limiter.running).toBe(0);
  });

  it('refuses a size below 1', () => {
    expect(() => new Limiter(0)).toThrow(RangeError);
  });
});
