import { createHash } from 'node:crypto';
import { callbackHeaders } from '../callbacks/callback-headers.js';
import type { CallbackRequest, CallbackResponse, CallbackSender } from '../callbacks/callback-sender.js';
import { SendBarrier } from '../callbacks/send-barrier.js';
import { DEFAULT_POOL } from '../merchants/fixtures.js';
import { createRandom } from '../trades/random.js';
import { drawRequisites } from '../trades/requisites.js';
import { type StateName, statesWith, toTrade, TRADE_STATES, type TradeRecord } from '../trades/trade.js';
import { readProbe, type ProbeAnswer } from '../balance-probe/read-probe.js';
import type { Profile } from '../profile/profile-schema.js';
import type { Schedule, StepKind } from './schedule.js';

/** Whose callbacks the fuzzer imitates, and the secrets it forges with. */
export interface FuzzTarget {
  url: string;
  merchant: { id: string; secret: string; rate?: number };
  /** Another merchant's secret, for the `other_merchant` forgery. */
  otherSecret: string;
  probe?: string;
  publicUrl: string;
  timeoutMs: number;
  sender: CallbackSender;
  /** The provider profile whose callbacks are imitated (headers, acknowledgement); default: the `sandbox` profile. */
  profile?: Profile;
}

/** How one request was sent: the event, a replay of it, or a forged copy. */
export type DeliveryKind = Exclude<StepKind, 'timeout' | 'at_once'>;

/** One callback on the wire and its answer. */
export interface Delivery {
  /** 1-based step of the schedule. */
  step: number;
  /** Index of the trade in the schedule. */
  trade: number;
  /** The state the callback reports: one of the trade's intermediate states (`via`), or its final state. */
  state: StateName;
  kind: DeliveryKind;
  /** Symbolic event id, e.g. "T1#1" (event 1 of trade 1, cb_<id>_1 on the wire), "T1#2" for its first replay. */
  event: string;
  attempt: number;
  /** Answer status, or null when none came (always null for an abandoned attempt: its answer is not judged). */
  status: number | null;
  /** The first attempt of a `timeout` step: abandoned at the callback timeout while the receiver still worked on it. */
  abandoned?: boolean;
  /** The retry of an abandoned attempt, sent while that attempt still ran. */
  retry?: boolean;
  /** Its place in an `at_once` group (1-based) and the group's size. */
  group?: { index: number; size: number };
  /** A 2xx that the profile's acknowledgement rule (ok-text, code-zero) did not count; `error` says why. */
  unacknowledged?: true;
  error?: string;
}

export interface ScheduleRun {
  deliveries: Delivery[];
  /** The probe's reading per trade (index as in the schedule), when there is a probe. */
  probes?: ProbeAnswer[];
}

/** One state change of a fuzzed trade: the state and the callback's body. */
export interface TradeEvent {
  state: StateName;
  body: string;
}

/**
 * The trade ids and orders of one run: unique per run of the fuzzer, never printed. `events` are
 * the trade's state changes in order (each intermediate state it passes, then its final one);
 * `state` and `body` are its final one's.
 */
export function runTrades(nonce: string, run: number, schedule: Schedule, target: FuzzTarget): Array<{ id: string; order: string; state: StateName; body: string; events: TradeEvent[] }> {
  return schedule.trades.map((trade, index) => {
    const hex = createHash('sha256').update(`${nonce}:${run}:${index}`).digest('hex');
    const id = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
    const order = `fuzz-${nonce}-${run}-${index + 1}`;
    const requisites = drawRequisites(createRandom(Number.parseInt(hex.slice(0, 8), 16)), DEFAULT_POOL, 'any_bank');
    const record: TradeRecord = {
      id,
      order,
      merchant: target.merchant.id,
      state: 'created',
      amount_cents: trade.amount_cents,
      amount_currency: 'RUB',
      rate: target.merchant.rate ?? 92.5,
      type: 'any_bank',
      requisites,
      created_at: '',
      updated_at: '',
      history: [],
    };
    // The body of each callback: the trade in that state exactly as GET returns it, serialized as
    // the dispatcher serializes it (src/trades/trade-json.ts).
    const events = [...(trade.via ?? []), trade.final].map((state) => ({ state, body: JSON.stringify(toTrade({ ...record, state }, 'get', target.publicUrl)) }));
    return { id, order, state: trade.final, body: events.at(-1)?.body ?? '', events };
  });
}

/**
 * Sends one schedule to the receiver, step by step, then reads the probe for each trade.
 * Callbacks are signed as the sandbox signs them under the profile (`target.profile`; under
 * `sandbox`, X-Signature: hex HMAC-SHA256 of the raw body keyed with the merchant's secret) and
 * their answers judged by its acknowledgement rule; bodies are the trade as GET returns it.
 *
 * A `timeout` step sends the event, abandons it once it is on the wire (the callback timeout
 * ran out while the receiver works on it) and sends the retry at once; an `at_once` group sends
 * its deliveries through one SendBarrier, so all are on the wire before any can be answered.
 * With `overlap: false` the same requests go out one after another, each answered before the
 * next (the fuzzer uses this to tell a race from a missing de-duplication). Before the probe is
 * read, every request still on the wire has been answered or has timed out.
 */
export async function runSchedule(schedule: Schedule, target: FuzzTarget & { profile: Profile }, nonce: string, run: number, options: { overlap?: boolean } = {}): Promise<ScheduleRun> {
  const overlap = options.overlap ?? true;
  const { profile } = target;
  const trades = runTrades(nonce, run, schedule, target);
  const attempts = new Map<string, number>();
  const replays = new Map<number, number>();
  const deliveries: Delivery[] = [];
  const stillRunning: Array<Promise<unknown>> = [];

  /** The next request of this kind for one of a trade's callbacks (`state`, its final one when left out): event id, attempt, signature. */
  const prepare = (stepNo: number, tradeIndex: number, kind: DeliveryKind, state: string | undefined) => {
    const trade = trades[tradeIndex]!;
    const at = state === undefined ? trade.events.length - 1 : trade.events.findIndex((e) => e.state === state);
    const { body, state: reported } = trade.events[at]!;
    // Events 1.. are the trade's state changes in order; a replay is a new event, numbered on (as the dispatcher numbers them).
    let seq = at + 1;
    if (kind === 'replay') {
      const count = (replays.get(tradeIndex) ?? 0) + 1;
      replays.set(tradeIndex, count);
      seq = trade.events.length + count;
    }
    const event = `T${tradeIndex + 1}#${seq}`;
    const attempt = (attempts.get(event) ?? 0) + 1;
    attempts.set(event, attempt);
    const request: CallbackRequest = {
      url: target.url,
      body,
      timeoutMs: target.timeoutMs,
      headers: headersFor(kind, target, profile, { body, eventId: `cb_${trade.id}_${seq}`, attempt, at: Date.now() }),
      acknowledge: profile.callbacks.acknowledge,
    };
    const delivery: Delivery = { step: stepNo, trade: tradeIndex, state: reported, kind, event, attempt, status: null };
    return { request, delivery };
  };
  const answered = (delivery: Delivery, answer: CallbackResponse): Delivery => ({
    ...delivery,
    status: answer.status,
    ...(answer.unacknowledged !== undefined ? { unacknowledged: true as const } : {}),
    ...((answer.status === null || answer.unacknowledged !== undefined) && answer.error !== undefined ? { error: answer.error } : {}),
  });

  for (const [index, step] of schedule.steps.entries()) {
    const stepNo = index + 1;
    if (step.kind === 'timeout') {
      const first = prepare(stepNo, step.trade, 'deliver', step.state);
      let onSent: () => void = () => undefined;
      const sent = new Promise<void>((resolve) => {
        onSent = resolve;
      });
      const answer = target.sender.send({ ...first.request, onSent });
      stillRunning.push(answer);
      // The callback timeout runs out while the receiver works on it: the attempt is abandoned
      // (its answer is never judged) and the retry goes out at once.
      await (overlap ? Promise.race([sent, answer]) : answer);
      deliveries.push({ ...first.delivery, abandoned: true });
      const retry = prepare(stepNo, step.trade, 'deliver', step.state);
      deliveries.push({ ...answered(retry.delivery, await target.sender.send(retry.request)), retry: true });
    } else if (step.kind === 'at_once') {
      const group = step.group.map((member) => prepare(stepNo, step.trade, member, step.state));
      const barrier = new SendBarrier(group.length);
      const answers: CallbackResponse[] = [];
      if (overlap) answers.push(...(await Promise.all(group.map((g) => target.sender.send({ ...g.request, barrier })))));
      else for (const g of group) answers.push(await target.sender.send(g.request));
      // In the group's own order, whatever order the answers came in.
      for (const [i, g] of group.entries()) deliveries.push({ ...answered(g.delivery, answers[i]!), group: { index: i + 1, size: group.length } });
    } else {
      const one = prepare(stepNo, step.trade, step.kind, step.state);
      deliveries.push(answered(one.delivery, await target.sender.send(one.request)));
    }
  }
  await Promise.all(stillRunning);
  if (target.probe === undefined) return { deliveries };
  const probes: ProbeAnswer[] = [];
  // The probe may answer the sandbox's states and every intermediate state the profile or the schedule names.
  const intermediate = [...new Set([...profile.states.intermediate, ...schedule.trades.flatMap((trade) => trade.via ?? [])])];
  const states = intermediate.length === 0 ? TRADE_STATES : statesWith(intermediate);
  for (const trade of trades) probes.push(await readProbe(target.probe, trade.order, target.timeoutMs, states));
  return { deliveries, probes };
}

/** A request's headers under the profile: signed with the merchant's secret, a wrong one, another merchant's, or without the signature. */
function headersFor(kind: DeliveryKind, target: FuzzTarget, profile: Profile, callback: { body: string; eventId: string; attempt: number; at: number }): Record<string, string> {
  const secret = target.merchant.secret;
  switch (kind) {
    case 'no_signature':
      return callbackHeaders(profile, { ...callback, secret }, 'missing');
    case 'wrong_signature':
      return callbackHeaders(profile, { ...callback, secret }, 'wrong');
    case 'other_merchant':
      return callbackHeaders(profile, { ...callback, secret: target.otherSecret }, 'valid');
    default:
      return callbackHeaders(profile, { ...callback, secret }, 'valid');
  }
}
