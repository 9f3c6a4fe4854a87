import { describeError, quietLogger } from '../log/logger.js';
import { EventEmitter } from 'node:events';
import type { Clock } from '../clock/clock.js';
import type { Job } from '../store/jobs.js';
import type { Scheduler } from '../clock/scheduler.js';
import type { StateChange } from '../lifecycle/lifecycle.js';
import { isFinal } from '../lifecycle/transitions.js';
import type { MerchantDirectory } from '../merchants/fixtures.js';
import { WriteFailedError, type Store } from '../store/store.js';
import type { TradeRecord } from '../trades/trade.js';
import type { TradeJsonCache } from '../trades/trade-json.js';
import type { Profile } from '../profile/profile-schema.js';
import type { CallbackBehaviour } from './behaviour.js';
import { badSignatureAttempt, sentAttempt, simulatedAttempt, unsignedAttempt, unspoiledAttempt } from './attempt-log.js';
import { callbackHeaders, describeCallbackSignature, type CallbackSignature } from './callback-headers.js';
import { CallbackIndex } from './callback-index.js';
import { CallbackSender, type CallbackResponse } from './callback-sender.js';
import { SendBarrier } from './send-barrier.js';
import { countedAttempts, type Attempt, type CallbackEvent } from '../store/callback-records.js';

/** Job kind of one callback attempt: data {event, attempt}. */
export const CALLBACK_JOB = 'callback';

/**
 * With a manual clock, how long (wall clock) the scheduler waits for an attempt's answer
 * before going on without it: long enough for any receiver that is working, short enough
 * that one that hangs does not hold `advance` and other trades for the callback timeout.
 */
export const MANUAL_CLOCK_WAIT_MS = 1_000;

export interface CallbackDispatcherOptions {
  /** Where a failed attempt or a listener that threw is told (the sandbox's logger); silent without. */
  warn?: (line: string) => void;
  store: Store;
  clock: Clock;
  scheduler: Scheduler;
  merchants: MerchantDirectory;
  /** Base of payment_data.url in the body (the sandbox's public URL, which may change once listening). */
  publicUrl: () => string;
  /** The sandbox's JSON text of its trades (a callback's body is the get view, as a poll reads it). */
  tradeJson: TradeJsonCache;
  /** How long a receiver has to answer, in ms. */
  timeoutMs: number;
  /**
   * The provider profile in force now (docs/provider-profile.md). A workspace may replace its own
   * at any time, so it is read when it matters: when a state change is queued (send_on), when
   * each attempt is sent (its headers, its acknowledgement rule) and when one fails (retries).
   */
  profile: () => Profile;
  /**
   * Waits before each retry, in ms, in place of the profile's `callbacks.retries` (given when
   * --callback-retries is); after the last one the event is failed.
   */
  retries?: readonly number[];
  /** With a manual clock, the longest wait for an attempt's answer (default MANUAL_CLOCK_WAIT_MS). */
  manualWaitMs?: number;
  /** The scenario's callback chaos for a trade, if any. */
  behaviourFor?: (trade: TradeRecord) => CallbackBehaviour | undefined;
  sender?: CallbackSender;
  /** The workspace's name, sent as X-Sandbox-Workspace when the profile sends the sandbox's headers; absent for `default`. */
  workspace?: string;
}

/** What the dispatcher reports as it works; listen with `dispatcher.on(...)`. */
export interface CallbackNotices {
  /** A new event was created (a state change or a replay). */
  queued: [event: CallbackEvent];
  /** An attempt was logged (any kind); `event` includes it. */
  attempt: [event: CallbackEvent, attempt: Attempt];
  delivered: [event: CallbackEvent];
  failed: [event: CallbackEvent];
}

type NewEvent = Pick<CallbackEvent, 'trade' | 'merchant' | 'url' | 'state' | 'body' | 'created_at'> & { replay_of?: string };

/**
 * Sends callbacks (contract §7). Every state change of a trade with a callback_url becomes a
 * stored CallbackEvent; each attempt is a stored scheduler job, so attempts follow the sandbox
 * clock, and a pending event survives a restart (`resume()`). A trade's events go out one
 * after another (the next one is scheduled only when the previous one is delivered or
 * failed); different trades overlap.
 *
 * With a manual clock an attempt job lasts until its answer, but at most
 * MANUAL_CLOCK_WAIT_MS, so `advance()` returns after every prompt delivery and retry that
 * fell due, while a receiver that hangs holds only its own trade's callbacks (the attempt
 * goes on alone until its answer or the callback timeout; its retry is then scheduled from
 * the clock's time at that moment). With a real clock the job only starts the attempt, so a
 * slow receiver never holds up other trades' callbacks or timeline steps.
 */
export class CallbackDispatcher extends EventEmitter<CallbackNotices> {
  readonly #o: CallbackDispatcherOptions;
  readonly #warn: (line: string) => void;
  readonly #sender: CallbackSender;
  readonly #index: CallbackIndex;
  /** Attempts under way, by event id. */
  readonly #inFlight = new Map<string, Promise<void>>();
  #stopped = false;

  constructor(options: CallbackDispatcherOptions) {
    super();
    this.setMaxListeners(0); // many tests may wait for callbacks at once
    this.#o = options;
    this.#warn = options.warn ?? quietLogger.warn;
    this.#sender = options.sender ?? new CallbackSender();
    this.#index = new CallbackIndex(options.store);
  }

  /** The sender's load: deliveries on the wire and waiting for a slot. */
  get load(): { running: number; waiting: number } {
    return this.#sender.load;
  }

  /**
   * Lifecycle listener: queues a callback for a state change of a trade with a callback_url (under
   * `send_on: final-only`, only for a change to a final state).
   */
  onChange(change: StateChange): CallbackEvent | undefined {
    const { trade } = change;
    if (!trade.callback_url) return undefined;
    if (this.#o.profile().callbacks.send_on === 'final-only' && !isFinal(change.to)) return undefined;
    return this.#add({
      trade: trade.id,
      merchant: trade.merchant,
      url: trade.callback_url,
      state: change.to,
      body: this.#o.tradeJson.get(trade, this.#o.publicUrl()),
      created_at: change.at,
    });
  }

  /** Sends event `id` again as a new event (replay_of = id, same body, signed afresh), now; undefined when there is no event `id`. */
  replay(id: string): CallbackEvent | undefined {
    const original = this.#o.store.callbacks.get(id);
    if (!original) return undefined;
    const { trade, merchant, url, state, body } = original;
    return this.#add({ trade, merchant, url, state, body, created_at: this.#o.clock.nowIso(), replay_of: original.id });
  }

  get(id: string): CallbackEvent | undefined {
    return this.#o.store.callbacks.get(id);
  }

  /** A trade's events, oldest first. */
  forTrade(trade: string): CallbackEvent[] {
    return this.#index.forTrade(trade);
  }

  /**
   * Schedules the next attempt of each trade's oldest pending event that has no job (after a
   * restart, or a reset of the scheduler). Returns how many were scheduled.
   */
  resume(): number {
    const scheduled = new Set(this.#o.scheduler.pending((job) => job.kind === CALLBACK_JOB).map((job) => String(job.data['event'])));
    let count = 0;
    for (const trade of this.#index.trades()) {
      const head = this.#index.head(trade);
      if (head && !scheduled.has(head.id) && !this.#inFlight.has(head.id)) {
        this.#scheduleNext(head);
        count++;
      }
    }
    return count;
  }

  /**
   * Forgets everything after the store was cleared, or its rows replaced (a state import): the
   * events are indexed from the store again, and deliveries in flight are abandoned.
   */
  reset(): void {
    this.#index.rebuild();
    this.#sender.abortAll();
  }

  /** Aborts deliveries in flight (each is rescheduled, so a restart sends it) and closes connections. */
  stop(): void {
    this.#stopped = true;
    this.#sender.close();
  }

  /** Resolves once no attempt is under way. */
  async idle(): Promise<void> {
    while (this.#inFlight.size > 0) await Promise.all(this.#inFlight.values());
  }

  /** Scheduler handler for CALLBACK_JOB: makes one attempt of one event (see the class comment). */
  async run(job: Job): Promise<void> {
    const id = String(job.data['event']);
    // Once stopped, nothing more is sent; pending events stay stored and resume() picks them up.
    if (this.#stopped) return;
    // A job of an event whose attempt is still under way (its retry fell due while the failed
    // attempt was being saved) runs after it, never beside it and never dropped: dropping it
    // would leave the event pending with no job until a restart. A stale job finds its attempt done.
    const earlier = this.#inFlight.get(id);
    const attempt = earlier ? earlier.then(() => (this.#stopped ? undefined : this.#attempt(job))) : this.#attempt(job);
    const work: Promise<void> = attempt
      // A detached attempt (real clock) ends after the scheduler's own commit: make it durable.
      .then(() => this.#o.store.commit())
      // A failed save is the store's to report (once per episode); the attempt is undone and runs again.
      .catch((error: unknown) => {
        if (!(error instanceof WriteFailedError)) this.#warn(`callback ${id} attempt failed: ${describeError(error)}`);
      })
      .finally(() => {
        if (this.#inFlight.get(id) === work) this.#inFlight.delete(id);
      });
    this.#inFlight.set(id, work);
    if (this.#o.clock.mode === 'manual') await settledWithin(work, this.#o.manualWaitMs ?? MANUAL_CLOCK_WAIT_MS);
  }

  async #attempt(job: Job): Promise<void> {
    const { store, clock } = this.#o;
    let event = store.callbacks.get(String(job.data['event']));
    if (event?.status !== 'pending') return;
    const n = countedAttempts(event) + 1;
    if (job.data['attempt'] !== n) return; // a stale job: that attempt already ran
    if (this.#earlierPending(event)) return; // it is scheduled when the earlier ones finish

    const trade = store.trades.get(event.trade);
    const behaviour = event.replay_of === undefined && trade ? this.#behaviour(trade) : undefined;
    if (behaviour?.fail_first && n <= behaviour.fail_first) {
      this.#afterFailure(this.#log(event, simulatedAttempt(n, clock.nowIso(), behaviour.fail_first, trade?.scenario)), n);
      return;
    }

    const secret = this.#o.merchants.get(event.merchant)?.secret;
    if (secret === undefined) {
      this.#afterFailure(this.#log(event, unsignedAttempt(n, clock.nowIso(), event.merchant)), n);
      return;
    }

    if (behaviour?.bad_signature && !event.attempts.some((a) => a.kind === 'bad_signature')) {
      const profile = this.#o.profile();
      const at = clock.nowIso();
      const signature = describeCallbackSignature(profile);
      if (signature === undefined) {
        // Unsigned callbacks: nothing to spoil. Said in the log; the callback goes out as normal.
        event = this.#log(event, unspoiledAttempt(n, at, profile.name));
      } else {
        const result = await this.#send(event, profile, this.#headers(profile, event, n, secret, 'wrong'));
        const current = this.#stillCurrent(event, n, result);
        if (!current) return;
        event = this.#log(current, badSignatureAttempt(n, at, result, signature));
      }
    }

    // The profile in force as the attempt is sent; every copy of this attempt carries the same headers.
    const profile = this.#o.profile();
    const headers = this.#headers(profile, event, n, secret, 'valid');
    const at = clock.nowIso();
    let twin: CallbackResponse | undefined;
    let result: CallbackResponse;
    if (behaviour?.overlap) {
      // Both copies are on the wire before the receiver can answer either (src/callbacks/send-barrier.ts).
      const barrier = new SendBarrier(2);
      [result, twin] = await Promise.all([this.#send(event, profile, headers, barrier), this.#send(event, profile, headers, barrier)]);
    } else {
      result = await this.#send(event, profile, headers);
    }
    const current = this.#stillCurrent(event, n, result);
    if (!current) return;
    // One stored change for the attempt and, when it counted, the delivery.
    event = this.#log(current, sentAttempt(n, 'delivery', at, result), result.ok ? 'delivered' : undefined);
    if (twin && !twin.aborted) event = this.#log(event, sentAttempt(n, 'duplicate', at, twin));
    if (!result.ok) {
      this.#afterFailure(event, n);
      return;
    }
    if (behaviour?.duplicate) {
      const again = clock.nowIso();
      const copy = await this.#send(event, profile, headers);
      const latest = store.callbacks.get(event.id);
      if (latest !== event) return; // reset meanwhile
      if (!copy.aborted) event = this.#log(event, sentAttempt(n, 'duplicate', again, copy));
    }
    this.#notify('delivered', event);
    this.#next(event.trade);
  }

  #add(fields: NewEvent): CallbackEvent {
    const previous = this.forTrade(fields.trade);
    const seq = (previous.at(-1)?.seq ?? 0) + 1;
    const event: CallbackEvent = {
      id: `cb_${fields.trade}_${seq}`,
      trade: fields.trade,
      merchant: fields.merchant,
      url: fields.url,
      state: fields.state,
      body: fields.body,
      status: 'pending',
      created_at: fields.created_at,
      seq,
      attempts: [],
      ...(fields.replay_of !== undefined ? { replay_of: fields.replay_of } : {}),
    };
    this.#o.store.callbacks.put(event);
    this.#index.add(event);
    this.#notify('queued', event);
    if (!previous.some((e) => e.status === 'pending')) this.#scheduleNext(event);
    return event;
  }

  #earlierPending(event: CallbackEvent): boolean {
    return this.forTrade(event.trade).some((e) => e.seq < event.seq && e.status === 'pending');
  }

  /** Schedules an event's next attempt: its first (after the scenario's delay) or a resumed one, now. */
  #scheduleNext(event: CallbackEvent): void {
    const now = this.#o.clock.now();
    let due = now;
    if (event.attempts.length === 0 && event.replay_of === undefined) {
      const trade = this.#o.store.trades.get(event.trade);
      const delay = trade ? (this.#behaviour(trade)?.delay ?? 0) : 0;
      if (delay > 0) due = Math.max(now, Date.parse(event.created_at) + delay);
    }
    this.#schedule(event, countedAttempts(event) + 1, due);
  }

  #schedule(event: CallbackEvent, attempt: number, due: number): void {
    this.#o.scheduler.schedule(CALLBACK_JOB, due, { event: event.id, attempt }, event.trade);
  }

  #afterFailure(event: CallbackEvent, n: number): void {
    // --callback-retries when given, else the retries of the profile in force now.
    const wait = (this.#o.retries ?? this.#o.profile().callbacks.retries)[n - 1];
    if (wait !== undefined) {
      this.#schedule(event, n + 1, this.#o.clock.now() + wait);
      return;
    }
    const failed = this.#o.store.callbacks.put({ ...event, status: 'failed' });
    this.#notify('failed', failed);
    this.#next(event.trade);
  }

  /** Starts the trade's next pending event, if any. */
  #next(trade: string): void {
    const head = this.#index.head(trade);
    if (head) this.#scheduleNext(head);
  }

  /**
   * After an await: the event as stored, or undefined when the attempt must be dropped (the
   * store was reset meanwhile, or the sandbox is stopping: then the attempt is scheduled again).
   */
  #stillCurrent(event: CallbackEvent, n: number, result: CallbackResponse): CallbackEvent | undefined {
    const current = this.#o.store.callbacks.get(event.id);
    if (current !== event) return undefined;
    if (result.aborted) {
      this.#schedule(event, n, this.#o.clock.now());
      return undefined;
    }
    return current;
  }

  /**
   * An attempt's headers under the profile (src/profile/sign-callback.ts). A timestamp in them
   * (Standard Webhooks) is the wall clock's: the receiver checks it against its own clock, and a
   * manual sandbox clock moved hours ahead must not make every callback look forged.
   */
  #headers(profile: Profile, event: CallbackEvent, attempt: number, secret: string, signature: CallbackSignature): Record<string, string> {
    const { workspace } = this.#o;
    return callbackHeaders(profile, { secret, body: event.body, eventId: event.id, attempt, at: Date.now(), ...(workspace !== undefined ? { workspace } : {}) }, signature);
  }

  #send(event: CallbackEvent, profile: Profile, headers: Record<string, string>, barrier?: SendBarrier): Promise<CallbackResponse> {
    return this.#sender.send({
      ...(barrier ? { barrier } : {}),
      url: event.url,
      body: event.body,
      timeoutMs: this.#o.timeoutMs,
      headers,
      acknowledge: profile.callbacks.acknowledge,
    });
  }

  #log(event: CallbackEvent, attempt: Attempt, status: CallbackEvent['status'] = event.status): CallbackEvent {
    const updated = this.#o.store.callbacks.put({ ...event, status, attempts: [...event.attempts, attempt] });
    this.#notify('attempt', updated, attempt);
    return updated;
  }

  #behaviour(trade: TradeRecord): CallbackBehaviour | undefined {
    try {
      return this.#o.behaviourFor?.(trade);
    } catch {
      return undefined;
    }
  }

  #notify<K extends keyof CallbackNotices>(name: K, ...args: CallbackNotices[K]): void {
    try {
      (this.emit as (name: K, ...rest: CallbackNotices[K]) => boolean)(name, ...args);
    } catch (error) {
      this.#warn(`a "${name}" callback listener threw: ${describeError(error)}`);
    }
  }
}

/** Resolves when `work` settles or after `ms`, whichever comes first. */
function settledWithin(work: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const waited = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
    timer.unref();
  });
  return Promise.race([work, waited]).finally(() => clearTimeout(timer));
}
