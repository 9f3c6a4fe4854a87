import { describeError, quietLogger } from '../log/logger.js';
import { WriteFailedError, type Store } from '../store/store.js';
import type { Clock } from './clock.js';
import { JobQueue } from './job-queue.js';
import { compareJobs, type Job } from '../store/jobs.js';

export type JobHandler = (job: Job) => Promise<void> | void;

const MAX_TIMER = 2 ** 31 - 1;
/** After a run failed to save (disk full...), due jobs are tried again this much later (real ms). */
const RETRY_MS = 1000;

/**
 * Runs stored jobs when the sandbox clock reaches them. Jobs live in the store (so a
 * restart resumes them) and are removed only after their handler finished (at least once).
 * Jobs of different trades run concurrently; jobs of one trade run one after another, in
 * due order. With a real clock a timer fires for the next job; with a manual clock only
 * `advance()` (or a job already due) makes anything run.
 */
export class Scheduler {
  readonly #store: Store;
  readonly #clock: Clock;
  readonly #handlers = new Map<string, JobHandler>();
  /** The stored jobs in due order (the store stays the truth; see JobQueue). */
  readonly #queue: JobQueue;
  #seq = 0;
  #timer: NodeJS.Timeout | undefined;
  /** Sandbox time the timer is set for. */
  #timerDue = Number.POSITIVE_INFINITY;
  #kick: NodeJS.Immediate | undefined;
  #chain: Promise<unknown> = Promise.resolve();
  #started = false;
  /** Real time (Date.now) before which due jobs wait, after a run could not save. */
  #retryAt = 0;
  #onError: (error: unknown, job: Job) => void;
  readonly #warn: (line: string) => void;

  /** `warn`: where a job that failed, or a run of due jobs that failed, is told (the sandbox's logger); silent without. */
  constructor(store: Store, clock: Clock, warn: (line: string) => void = quietLogger.warn) {
    this.#store = store;
    this.#clock = clock;
    this.#warn = warn;
    this.#onError = (error, job) => warn(`job ${job.kind} ${job.id} failed: ${describeError(error)}`);
    for (const job of store.jobs.values()) this.#seq = Math.max(this.#seq, job.seq);
    this.#queue = new JobQueue(
      (job) => store.jobs.get(job.id) === job,
      () => store.jobs.size,
    );
    this.#queue.rebuild(store.jobs.values());
  }

  handle(kind: string, handler: JobHandler): void {
    this.#handlers.set(kind, handler);
  }

  /** Stores a job due at sandbox time `due`. */
  schedule(kind: string, due: number, data: Record<string, unknown> = {}, trade?: string): Job {
    const job: Job = { id: `job_${(++this.#seq).toString(36)}_${Math.floor(due).toString(36)}`, due, seq: this.#seq, kind, data, ...(trade ? { trade } : {}) };
    this.#store.jobs.put(job);
    this.#queue.push(job);
    this.#armFor(due);
    return job;
  }

  /**
   * Takes the stored jobs as they are now, after the store's rows were replaced as a whole (a
   * state document imported, src/sessions/), and sets the timer for them: the queue is built
   * again, and new jobs are numbered after every stored one.
   */
  reload(): void {
    for (const job of this.#store.jobs.values()) this.#seq = Math.max(this.#seq, job.seq);
    this.#queue.rebuild(this.#store.jobs.values());
    this.#arm();
  }

  /** Jobs not yet run, in the order they will run. */
  pending(filter: (job: Job) => boolean = () => true): Job[] {
    return [...this.#store.jobs.values()].filter(filter).sort(compareJobs);
  }

  cancel(filter: (job: Job) => boolean): number {
    let count = 0;
    for (const job of this.pending(filter)) {
      this.#store.jobs.delete(job.id);
      count++;
    }
    return count;
  }

  /** Starts the timers (real clock) and runs whatever is already due. */
  start(): Promise<number> {
    this.#started = true;
    return this.runDue();
  }

  stop(): void {
    this.#started = false;
    clearTimeout(this.#timer);
    if (this.#kick) clearImmediate(this.#kick);
    this.#timer = undefined;
    this.#timerDue = Number.POSITIVE_INFINITY;
    this.#kick = undefined;
  }

  /** Waits for the runs under way to finish. */
  idle(): Promise<void> {
    return this.#chain.then(() => undefined);
  }

  /** Runs every job due at or before the current sandbox time. Returns how many ran. */
  runDue(): Promise<number> {
    return this.#serialize(() => this.#runUntil(this.#clock.now(), false));
  }

  /**
   * Moves the clock forward by `ms`, stopping at each job's due time to run it (so retries
   * and timeline steps scheduled by earlier jobs run too, at their own times), then sets
   * the clock to the target. Resolves once everything that fell due has run.
   */
  advance(ms: number): Promise<{ now: number; ran: number }> {
    if (!Number.isFinite(ms) || ms < 0) return Promise.reject(new RangeError('advance takes a duration of zero or more'));
    return this.#serialize(async () => {
      const target = this.#clock.now() + ms;
      const ran = await this.#runUntil(target, true);
      this.#clock.advanceTo(target);
      await this.#store.commit();
      return { now: this.#clock.now(), ran };
    });
  }

  #serialize<T>(task: () => Promise<T>): Promise<T> {
    const run = this.#chain.then(task, task);
    this.#chain = run.catch(() => undefined);
    return run;
  }

  /**
   * Runs the jobs due by `target`, one due time after another (moving a manual clock to
   * each), taking them from the queue: O(log n) per job, whatever the number of jobs
   * stored. Only saved jobs run: each batch starts once the store has committed (a job whose
   * save failed was undone and is gone). A failed save ends the run, leaves the jobs due
   * (their changes were undone) and retries them RETRY_MS later; the timer is set again
   * however it ends.
   */
  async #runUntil(target: number, moveClock: boolean): Promise<number> {
    let ran = 0;
    try {
      for (;;) {
        await this.#store.commit();
        const next = this.#queue.peek();
        if (!next || next.due > target) break;
        if (moveClock) this.#clock.advanceTo(next.due);
        const batch = this.#queue.takeDue(this.#clock.now());
        ran += batch.length;
        await this.#runBatch(batch);
      }
      this.#retryAt = 0;
    } catch (error) {
      // Jobs taken from the queue but not run, or restored by an undo, are stored: queue them again.
      this.#queue.rebuild(this.#store.jobs.values());
      this.#retryAt = Date.now() + RETRY_MS;
      throw error;
    } finally {
      this.#arm();
    }
    return ran;
  }

  /** A run started by the timer: a failure is the store's to report (it logs once per episode). */
  #runInBackground(): void {
    this.runDue().catch((error: unknown) => {
      if (!(error instanceof WriteFailedError)) this.#warn(`running due jobs failed: ${describeError(error)}`);
    });
  }

  async #runBatch(batch: Job[]): Promise<void> {
    const byTrade = new Map<string, Job[]>();
    for (const job of batch) {
      const key = job.trade ?? job.id;
      const list = byTrade.get(key);
      if (list) list.push(job);
      else byTrade.set(key, [job]);
    }
    await Promise.all(
      [...byTrade.values()].map(async (jobs) => {
        for (const job of jobs) await this.#run(job);
      }),
    );
  }

  async #run(job: Job): Promise<void> {
    if (!this.#store.jobs.has(job.id)) return;
    const handler = this.#handlers.get(job.kind);
    try {
      if (!handler) throw new Error(`no handler for job kind ${job.kind}`);
      await handler(job);
    } catch (error) {
      this.#onError(error, job);
    }
    this.#store.jobs.delete(job.id);
  }

  /** Sets the timer (or the immediate run) for the job that runs next. */
  #arm(): void {
    if (!this.#started) return;
    const next = this.#queue.peek();
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#timerDue = Number.POSITIVE_INFINITY;
    if (next) this.#armFor(next.due);
  }

  /**
   * Makes sure something runs by `due` without scanning the jobs: every run ends with
   * `#arm()`, so while a run is coming (or under way) a new job needs nothing, and a timer
   * set for an earlier time already covers a later job.
   */
  #armFor(due: number): void {
    if (!this.#started || this.#kick !== undefined) return;
    const wait = due - this.#clock.now();
    const pause = this.#retryAt - Date.now();
    if (wait <= 0 && pause <= 0) {
      this.#kick = setImmediate(() => {
        this.#kick = undefined;
        this.#runInBackground();
      });
      return;
    }
    if (wait <= 0) {
      // Due, but the last run could not save: try again after the pause (any clock mode).
      this.#setTimer(due, pause);
      return;
    }
    if (this.#clock.mode === 'manual' || due >= this.#timerDue) return;
    this.#setTimer(due, wait);
  }

  #setTimer(due: number, wait: number): void {
    clearTimeout(this.#timer);
    this.#timerDue = due;
    this.#timer = setTimeout(
      () => {
        this.#timerDue = Number.POSITIVE_INFINITY;
        this.#runInBackground();
      },
      Math.min(wait, MAX_TIMER),
    );
    this.#timer.unref();
  }
}
