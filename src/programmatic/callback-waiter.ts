import type { CallbackDispatcher } from '../callbacks/callback-dispatcher.js';
import type { CallbackEvent } from '../store/callback-records.js';
import type { Clock } from '../clock/clock.js';
import type { Scheduler } from '../clock/scheduler.js';
import type { Store } from '../store/store.js';

/** Fields a callback event must have; every given field must be equal. */
export type CallbackMatch = Partial<Pick<CallbackEvent, 'id' | 'trade' | 'merchant' | 'url' | 'state' | 'replay_of'>>;
export type CallbackPredicate = (event: CallbackEvent) => boolean;

export interface WaitForOptions {
  /** Give up after this many ms (default 4000, under vitest's and jest's 5 s test timeout). */
  timeout?: number;
  /** Wait for a `delivered` callback (default) or one that `failed` after its last retry. */
  status?: 'delivered' | 'failed';
  /**
   * Also match callbacks that reached the status before waitFor was called (default true),
   * so a fast delivery between your request and the wait is not missed. False: only new ones.
   */
  includePast?: boolean;
}

export const DEFAULT_WAIT_MS = 4_000;

/** How many callbacks a timeout message lists. */
const LISTED = 10;

/**
 * Waits for callbacks of an in-process sandbox by listening to its dispatcher's events
 * (no polling). Timeouts reject with what was awaited and which callbacks exist.
 */
export class CallbackWaiter {
  readonly #parts: { callbacks: CallbackDispatcher; store: Store; clock: Clock; scheduler: Scheduler };
  readonly #pending = new Set<(reason: Error) => void>();

  constructor(parts: { callbacks: CallbackDispatcher; store: Store; clock: Clock; scheduler: Scheduler }) {
    this.#parts = parts;
  }

  /**
   * Resolves with the first callback event that matches (an object of fields, or a
   * predicate) once it is delivered (or failed, with `status: 'failed'`).
   */
  waitFor(match: CallbackMatch | CallbackPredicate, options: WaitForOptions = {}): Promise<CallbackEvent> {
    const { callbacks, store } = this.#parts;
    const status = options.status ?? 'delivered';
    const timeout = options.timeout ?? DEFAULT_WAIT_MS;
    const test = typeof match === 'function' ? match : matcher(match);
    const wanted = `a ${status} callback ${describeMatch(match)}`;

    return new Promise<CallbackEvent>((resolve, reject) => {
      let settled = false;
      const finish = (error: Error | undefined, event?: CallbackEvent) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        callbacks.off(status, listener);
        this.#pending.delete(abort);
        if (error) reject(error);
        else resolve(event as CallbackEvent);
      };
      const check = (event: CallbackEvent): boolean => {
        let matched: boolean;
        try {
          matched = test(event);
        } catch (error) {
          finish(new Error(`waitFor: the predicate threw on callback ${event.id}: ${(error as Error).message}`));
          return true;
        }
        if (matched) finish(undefined, event);
        return matched;
      };
      const listener = (event: CallbackEvent) => void check(event);
      const abort = (reason: Error) => finish(reason);
      const timer = setTimeout(() => finish(new Error(this.#timeoutMessage(wanted, timeout, match, status))), timeout);

      this.#pending.add(abort);
      callbacks.on(status, listener);
      if (options.includePast !== false) {
        for (const event of store.callbacks.values()) if (event.status === status && check(event)) break;
      }
    });
  }

  /** Rejects every wait under way (the sandbox is closing). */
  closeAll(reason: string): void {
    for (const abort of [...this.#pending]) abort(new Error(reason));
  }

  #timeoutMessage(wanted: string, timeout: number, match: CallbackMatch | CallbackPredicate, status: string): string {
    const { store, clock, scheduler } = this.#parts;
    const all = [...store.callbacks.values()];
    const trade = typeof match === 'object' ? match.trade : undefined;
    const related = trade !== undefined ? all.filter((e) => e.trade === trade) : all;
    const lines = [`waitFor timed out after ${timeout} ms waiting for ${wanted}.`];
    if (all.length === 0) {
      lines.push(
        'No callback has been queued at all. A callback is sent when a trade that has a callback_url changes state (creating a trade sends none): check the create request had callback_url, and that the trade moved (admin.transition, the payment page, a scenario timeline).',
      );
    } else {
      const scope = trade !== undefined ? `of trade ${trade}` : 'in this sandbox';
      lines.push(`${related.length} callback${related.length === 1 ? '' : 's'} ${scope}${related.length > LISTED ? ` (the newest ${LISTED} shown)` : ''}${related.length > 0 ? ':' : '.'}`);
      for (const event of related.slice(-LISTED)) lines.push(`  ${describeEvent(event)}`);
      if (trade !== undefined && related.length === 0) lines.push(`The sandbox has ${all.length} callback${all.length === 1 ? '' : 's'} of other trades.`);
      if (related.some((e) => e.status === 'pending')) lines.push(`A callback is still pending: its attempts above say why it is not ${status} yet.`);
    }
    if (clock.mode === 'manual' && scheduler.pending().some((job) => job.due > clock.now())) {
      lines.push('The sandbox clock is manual and steps are waiting for it: call admin.advanceClock("…") to run retries, delays and timelines.');
    }
    return lines.join('\n');
  }
}

function matcher(match: CallbackMatch): CallbackPredicate {
  const entries = Object.entries(match).filter(([, value]) => value !== undefined);
  return (event) => entries.every(([name, value]) => (event as Record<string, unknown>)[name] === value);
}

/** `with trade "…" and state "confirmed"`, or the predicate's source when short. */
export function describeMatch(match: CallbackMatch | CallbackPredicate): string {
  if (typeof match === 'function') {
    const source = match.toString().replace(/\s+/g, ' ');
    return `matching ${source.length <= 100 ? source : match.name ? `the predicate ${match.name}` : 'the predicate'}`;
  }
  const entries = Object.entries(match).filter(([, value]) => value !== undefined);
  if (entries.length === 0) return '(any)';
  return `with ${entries.map(([name, value]) => `${name} ${JSON.stringify(value)}`).join(' and ')}`;
}

/** `cb_…_1 confirmed pending -> http://… (2 attempts; last: 500 "…")` */
function describeEvent(event: CallbackEvent): string {
  const last = event.attempts.at(-1);
  const lastText = last ? `; last: ${last.status ?? 'no answer'}${last.error ? ` ${last.error}` : ''}` : '';
  return `${event.id} ${event.state} ${event.status} -> ${event.url} (${event.attempts.length} attempt${event.attempts.length === 1 ? '' : 's'}${lastText})`;
}
