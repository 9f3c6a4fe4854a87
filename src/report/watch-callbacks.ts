import type { CallbackDispatcher } from '../callbacks/callback-dispatcher.js';
import type { MistakeCounter } from './mistake-counter.js';

const TIMED_OUT = /^No answer within |did not finish the answer within /;

/** Feeds the counter from the callback dispatcher's events: the one place callback mistakes are seen. */
export function watchCallbacks(dispatcher: CallbackDispatcher, counter: MistakeCounter): void {
  dispatcher.on('attempt', (event, attempt) => {
    const kind = attempt.kind ?? 'delivery';
    if (kind === 'bad_signature') {
      if (attempt.status !== null && attempt.status >= 200 && attempt.status < 300) counter.callback(event.merchant, 'accepted_bad_signature');
      return;
    }
    if (kind !== 'delivery') return; // simulated failures and the scenario's duplicate copy are the sandbox's doing
    if (attempt.status !== null && (attempt.status < 200 || attempt.status >= 300)) counter.callback(event.merchant, 'answered_non_2xx');
    else if (attempt.error !== undefined && TIMED_OUT.test(attempt.error)) counter.callback(event.merchant, 'timed_out');
  });
  dispatcher.on('failed', (event) => counter.neverAcknowledged(event.merchant));
}
