import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JobQueue } from './job-queue.js';
import { compareJobs, type Job } from '../store/jobs.js';

const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);
const job = (seq: number, due: number): Job => ({ id: `j${seq}`, seq, due, kind: 'note', data: {} });

describe('JobQueue', () => {
  it('takes live jobs in due order (then scheduling order), skipping removed ones', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 50 }), fc.boolean()), { maxLength: 200 }), fc.integer({ min: 0, max: 50 }), (specs, cut) => {
        const live = new Map<string, Job>();
        const queue = new JobQueue(
          (j) => live.get(j.id) === j,
          () => live.size,
        );
        const all = specs.map(([due, keep], seq) => {
          const j = job(seq, due);
          live.set(j.id, j);
          queue.push(j);
          return { j, keep };
        });
        for (const { j, keep } of all) if (!keep) live.delete(j.id);
        const expected = [...live.values()].filter((j) => j.due <= cut).sort(compareJobs);
        expect(queue.takeDue(cut)).toEqual(expected);
        expect(queue.peek()).toEqual([...live.values()].filter((j) => j.due > cut).sort(compareJobs)[0]);
      }),
    );
  });

  it('drops stale entries once they outnumber live jobs', () => {
    const live = new Map<string, Job>();
    const queue = new JobQueue(
      (j) => live.get(j.id) === j,
      () => live.size,
    );
    for (let i = 0; i < 1_000; i++) {
      const j = job(i, T0 + i);
      live.set(j.id, j);
      queue.push(j);
      live.delete(j.id); // run or cancelled elsewhere
    }
    expect(queue.size).toBeLessThan(200);
  });
});
