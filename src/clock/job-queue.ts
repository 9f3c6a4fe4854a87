import { compareJobs, type Job } from '../store/jobs.js';

/**
 * The stored jobs in due order, as a binary min-heap, so that finding and taking the jobs
 * due next costs O(log n) each instead of a scan of every job. The store stays the truth:
 * `isLive(job)` says whether an entry is still the stored job (a job run, cancelled or
 * cleared by a reset leaves a stale entry, dropped when it reaches the top, or all at
 * once by a rebuild when stale entries outnumber live ones).
 */
export class JobQueue {
  #heap: Job[] = [];
  readonly #isLive: (job: Job) => boolean;
  readonly #liveCount: () => number;

  constructor(isLive: (job: Job) => boolean, liveCount: () => number) {
    this.#isLive = isLive;
    this.#liveCount = liveCount;
  }

  get size(): number {
    return this.#heap.length;
  }

  /** Replaces the contents with `jobs` (O(n)). */
  rebuild(jobs: Iterable<Job>): void {
    this.#heap = [...jobs];
    for (let i = (this.#heap.length >> 1) - 1; i >= 0; i--) this.#down(i);
  }

  push(job: Job): void {
    this.#heap.push(job);
    this.#up(this.#heap.length - 1);
    if (this.#heap.length > 64 && this.#heap.length > 2 * this.#liveCount() + 64) this.#compact();
  }

  /** The live job that runs next, or undefined. */
  peek(): Job | undefined {
    for (;;) {
      const top = this.#heap[0];
      if (top === undefined || this.#isLive(top)) return top;
      this.#pop();
    }
  }

  /** Takes every live job due at or before `time`, in due order. */
  takeDue(time: number): Job[] {
    const due: Job[] = [];
    for (let next = this.peek(); next !== undefined && next.due <= time; next = this.peek()) due.push(this.#pop()!);
    return due;
  }

  #compact(): void {
    this.rebuild(this.#heap.filter((job) => this.#isLive(job)));
  }

  #pop(): Job | undefined {
    const heap = this.#heap;
    const top = heap[0];
    const last = heap.pop();
    if (heap.length > 0 && last !== undefined) {
      heap[0] = last;
      this.#down(0);
    }
    return top;
  }

  #up(i: number): void {
    const heap = this.#heap;
    const job = heap[i]!;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (compareJobs(heap[parent]!, job) <= 0) break;
      heap[i] = heap[parent]!;
      i = parent;
    }
    heap[i] = job;
  }

  #down(i: number): void {
    const heap = this.#heap;
    const n = heap.length;
    const job = heap[i]!;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= n) break;
      if (child + 1 < n && compareJobs(heap[child + 1]!, heap[child]!) < 0) child++;
      if (compareJobs(heap[child]!, job) >= 0) break;
      heap[i] = heap[child]!;
      i = child;
    }
    heap[i] = job;
  }
}
