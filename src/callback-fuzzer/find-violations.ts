import { acknowledgingAnswer } from '../callbacks/acknowledging-answer.js';
import { describeCallbackSignature } from '../callbacks/callback-headers.js';
import type { Profile } from '../profile/profile-schema.js';
import type { StateName } from '../trades/trade.js';
import type { Delivery, ScheduleRun } from './run-schedule.js';
import { FORGED_KINDS, type Schedule } from './schedule.js';

/** Kinds of defect, most costly first: the first one found is a schedule's headline cause. */
export const VIOLATION_KINDS = [
  'credited_forged',
  'forged_accepted',
  'credited_unconfirmed',
  'credited_twice',
  'credited_wrong',
  'not_credited',
  'state_back',
  'state_wrong',
  'forged_not_refused',
  'genuine_refused',
] as const;
export type ViolationKind = (typeof VIOLATION_KINDS)[number];

export interface Violation {
  kind: ViolationKind;
  /** Plain-language cause, e.g. "credited 31250 twice: the receiver does not de-duplicate ...". */
  cause: string;
}

/** The invariants each needs the probe for are skipped without one. */
export const INVARIANTS: Record<ViolationKind, { title: string; needsProbe: boolean }> = {
  credited_forged: { title: 'nothing is credited for a forged callback', needsProbe: true },
  forged_accepted: { title: 'forged callbacks get a 4xx', needsProbe: false },
  credited_unconfirmed: { title: 'nothing is credited for a trade that was not confirmed', needsProbe: true },
  credited_twice: { title: 'a confirmed trade is credited exactly once', needsProbe: true },
  credited_wrong: { title: 'the credited amount is the trade amount', needsProbe: true },
  not_credited: { title: 'a confirmed trade is credited', needsProbe: true },
  state_back: { title: 'the state never goes back', needsProbe: true },
  state_wrong: { title: 'the state is the newest genuine one', needsProbe: true },
  forged_not_refused: { title: 'forged callbacks are refused with a 4xx, not a 5xx or no answer', needsProbe: false },
  genuine_refused: { title: 'genuine callbacks get a 2xx', needsProbe: false },
};

/** The profile's terms in the causes: its signature header and how to verify it, its acknowledgement, its event id header. */
export interface FuzzWords {
  /** The signature header, e.g. X-Signature. */
  header: string;
  /** What to verify, e.g. "X-Signature (HMAC-SHA256 of the raw body with the merchant's secret)". */
  verify: string;
  /** The answer that acknowledges a callback, e.g. `2xx`. */
  ack: string;
  /** The header that names the event, when callbacks carry one (X-Sandbox-Event-Id, or webhook-id under Standard Webhooks). */
  eventId: string | undefined;
}

/** The sandbox profile's terms: the causes as they always were. */
export const SANDBOX_FUZZ_WORDS: FuzzWords = {
  header: 'X-Signature',
  verify: "X-Signature (HMAC-SHA256 of the raw body with the merchant's secret)",
  ack: '2xx',
  eventId: 'X-Sandbox-Event-Id',
};

/** The terms of a profile's callbacks for the causes. */
export function fuzzWords(profile: Profile): FuzzWords {
  const signature = describeCallbackSignature(profile);
  const sandboxScheme = profile.callbacks.signature === 'sandbox';
  return {
    header: signature?.header ?? SANDBOX_FUZZ_WORDS.header,
    verify: sandboxScheme || signature === undefined ? SANDBOX_FUZZ_WORDS.verify : `${signature.header} (${signature.how})`,
    ack: acknowledgingAnswer(profile.callbacks.acknowledge),
    eventId: profile.callbacks.sandbox_headers ? 'X-Sandbox-Event-Id' : profile.callbacks.signature === 'standard-webhooks' ? 'webhook-id' : undefined,
  };
}

/**
 * How far along its lifecycle a state puts a trade that passes `via` (a provider profile's
 * intermediate states) on its way to a final state: the waiting states first, then each
 * intermediate state in order, then the final states; undefined for a state not on its way.
 */
function rankOf(state: StateName, via: readonly string[]): number | undefined {
  if (state === 'created' || state === 'ecom') return 0;
  if (state === 'confirmed' || state === 'canceled' || state === 'expired') return via.length + 1;
  const at = via.indexOf(state);
  return at < 0 ? undefined : at + 1;
}
const forgery = (kind: string, words: FuzzWords): string => (kind === 'wrong_signature' ? `a wrong ${words.header}` : kind === 'no_signature' ? `no ${words.header}` : "another merchant's signature");
const is2xx = (status: number | null) => status !== null && status >= 200 && status < 300;
/** A 2xx that acknowledged the callback under the profile's rule. */
const acknowledged = (d: Delivery) => is2xx(d.status) && d.unacknowledged !== true;
const is4xx = (status: number | null) => status !== null && status >= 400 && status < 500;
const answer = (d: Delivery) => (d.status === null ? 'no answer' : d.unacknowledged ? `${d.status} (not an acknowledgement)` : String(d.status));

/**
 * Checks one schedule's deliveries and probe readings against the invariants: a confirmed
 * trade is credited its amount exactly once, and only if a genuine `confirmed` was delivered;
 * nothing is credited for forged or non-confirmed callbacks; the state never goes back;
 * forged callbacks get a 4xx and genuine ones a 2xx. Returns every violation, worst first.
 * `races` holds the trades whose double credit is a race: the same schedule sent one request
 * after another credited them once (see fuzzReceiver).
 */
export function findViolations(schedule: Schedule, run: ScheduleRun, races: ReadonlySet<number> = new Set(), words: FuzzWords = SANDBOX_FUZZ_WORDS): Violation[] {
  const found: Violation[] = [];
  const add = (kind: ViolationKind, cause: string) => {
    if (!found.some((v) => v.kind === kind && v.cause === cause)) found.push({ kind, cause });
  };

  for (const d of run.deliveries) {
    const label = `T${d.trade + 1} ${d.state} (event ${d.event})`;
    if (FORGED_KINDS.has(d.kind)) {
      if (acknowledged(d))
        add(
          'forged_accepted',
          `accepted a callback with ${forgery(d.kind, words)} (${label}) with ${d.status}: the receiver does not verify ${words.verify}; anyone who can reach it could mark orders paid`,
        );
      else if (!is4xx(d.status)) add('forged_not_refused', `answered ${answer(d)} to a callback with ${forgery(d.kind, words)} (${label}): refuse it with 401`);
    } else if (!d.abandoned && !acknowledged(d)) {
      add(
        'genuine_refused',
        `answered ${answer(d)} to a genuine callback (${label}, attempt ${d.attempt}${d.kind === 'replay' ? ', a replay' : ''})${d.error ? ` (${d.error})` : ''}: answer ${words.ack} to every correctly signed callback, also repeats and older states, and ignore what is already handled`,
      );
    }
  }

  if (run.probes) {
    for (const [index, trade] of schedule.trades.entries()) {
      const probe = run.probes[index];
      if (!probe) continue;
      checkTrade(
        index,
        trade.amount_cents,
        trade.via ?? [],
        run.deliveries.filter((d) => d.trade === index),
        probe,
        add,
        races.has(index),
        words,
      );
    }
  }
  return found.sort((a, b) => VIOLATION_KINDS.indexOf(a.kind) - VIOLATION_KINDS.indexOf(b.kind));
}

function checkTrade(
  index: number,
  amount: number,
  via: readonly string[],
  deliveries: Delivery[],
  probe: { state: StateName | null; credited_cents: number },
  add: (kind: ViolationKind, cause: string) => void,
  race: boolean,
  words: FuzzWords,
): void {
  const name = `T${index + 1}`;
  const genuine = deliveries.filter((d) => !FORGED_KINDS.has(d.kind));
  const forged = deliveries.filter((d) => FORGED_KINDS.has(d.kind));
  const confirmed = genuine.filter((d) => d.state === 'confirmed');
  const accepted = confirmed.some((d) => acknowledged(d) || d.abandoned);
  const credited = probe.credited_cents;

  if (credited > 0 && confirmed.length === 0) {
    const forgedConfirmed = forged.filter((d) => d.state === 'confirmed');
    if (forgedConfirmed.length > 0) {
      const refused = forgedConfirmed.every((d) => is4xx(d.status));
      add(
        'credited_forged',
        refused
          ? `credited ${credited} for ${name} from a forged callback it answered ${answer(forgedConfirmed[0]!)} to: the receiver credits before verifying the signature; verify ${words.header} first and change nothing when it does not match`
          : `credited ${credited} for ${name} from a forged callback (${forgery(forgedConfirmed[0]!.kind, words)}): the receiver does not verify ${words.header}`,
      );
    } else {
      const seen = [...new Set(genuine.map((d) => d.state))].join(', ') || 'nothing';
      add('credited_unconfirmed', `credited ${credited} for ${name}, which was never confirmed (it received ${seen}): credit only when a genuine callback says "confirmed"`);
    }
  } else if (confirmed.length > 0 && credited !== amount) {
    if (credited === 0) {
      if (accepted)
        add('not_credited', `credited nothing for ${name} although a genuine "confirmed" for ${amount} was delivered and answered ${words.ack}: credit the amount when "confirmed" arrives`);
    } else if (credited % amount === 0) {
      const n = credited / amount;
      add('credited_twice', race ? `${raceCause(amount, n)} (${name})` : `credited ${amount} ${times(n)}: ${twiceCause(confirmed, words)} (${name})`);
    } else if (credited > amount && forged.some((d) => d.state === 'confirmed')) {
      add('credited_forged', `credited ${credited} for ${name} (amount ${amount}) after a forged "confirmed": the receiver credits before verifying the signature, or does not verify it`);
    } else {
      add('credited_wrong', `credited ${credited} for ${name}, but its amount_cents is ${amount}: credit exactly amount_cents`);
    }
  }

  const rank = (state: StateName) => rankOf(state, via) ?? -1;
  const taken = genuine.filter((d) => acknowledged(d) || d.abandoned);
  const newest = taken.reduce<StateName | null>((best, d) => (best === null || rank(d.state) > rank(best) ? d.state : best), null);
  if (newest === null || probe.state === newest) return;
  const older = probe.state === null ? undefined : rankOf(probe.state, via);
  if (older !== undefined && older < rank(newest)) {
    // With intermediate states a trade has several callbacks, and an older one can arrive last.
    const lastNewest = taken.findLastIndex((d) => d.state === newest);
    const late = probe.state !== null && taken.findLastIndex((d) => d.state === probe.state) > lastNewest;
    add(
      'state_back',
      late
        ? `the state of ${name} went back from ${newest} to ${probe.state}: the callback for ${probe.state} arrived after the one for ${newest} (a trade's callbacks can arrive out of order) and the receiver stored the state that came last; keep a trade's newest state, and never let an older state replace a newer one`
        : `the state of ${name} went back from ${newest} to ${probe.state}: the receiver did not keep the final state of a genuine callback it answered ${words.ack} to; store it, and never let an older state replace a newer one`,
    );
  } else if (!forged.some((d) => d.state === probe.state)) {
    add('state_wrong', `the probe says ${name} is ${probe.state ?? 'unknown (null)'}, but the newest genuine callback it accepted says ${newest}`);
  }
}

const times = (n: number) => (n === 2 ? 'twice' : `${n} times`);

/** True when some deliveries of this trade overlapped at the receiver (a timeout's retry, an at_once group). */
export function overlapped(deliveries: readonly Delivery[], trade: number): boolean {
  return deliveries.some((d) => d.trade === trade && d.state === 'confirmed' && (d.abandoned === true || d.group !== undefined));
}

/** The cause of a double credit that only happens when deliveries overlap. */
function raceCause(amount: number, n: number): string {
  return `credited ${amount} ${times(n)} when ${n === 2 ? 'two' : n} deliveries of one event overlapped: the receiver checks and then writes without a unique key or a lock; make the write itself refuse the second (a unique index on the event id or on trade id + state, INSERT … ON CONFLICT DO NOTHING, or SELECT … FOR UPDATE)`;
}

function twiceCause(confirmed: Delivery[], words: FuzzWords): string {
  const byEvent = new Map<string, number>();
  for (const d of confirmed) byEvent.set(d.event, (byEvent.get(d.event) ?? 0) + 1);
  const repeated = [...byEvent.values()].some((n) => n > 1);
  if (words.eventId === undefined) return 'the receiver does not de-duplicate by trade id and state; callbacks arrive at least once, so the same callback can come again';
  if (repeated) return `the receiver does not de-duplicate by ${words.eventId} or by trade id and state; callbacks arrive at least once, so the same event can come again`;
  return `the receiver de-duplicates by ${words.eventId} only; a replay of "confirmed" comes under a new event id, so also credit at most once per trade (by trade id and state)`;
}
