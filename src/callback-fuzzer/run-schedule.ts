import { createHash } from 'node:crypto';
import { sign } from '../auth/signature.js';
import type { CallbackSender } from '../callbacks/callback-sender.js';
import { DEFAULT_POOL } from '../merchants/fixtures.js';
import { createRandom } from '../trades/random.js';
import { drawRequisites } from '../trades/requisites.js';
import { toTrade, type TradeRecord, type TradeState } from '../trades/trade.js';
import { readProbe, type ProbeAnswer } from './probe.js';
import type { Schedule, Step, StepKind } from './schedule.js';

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
}

/** One callback on the wire and its answer. */
export interface Delivery {
  /** 1-based step of the schedule. */
  step: number;
  /** Index of the trade in the schedule. */
  trade: number;
  state: TradeState;
  kind: StepKind;
  /** Symbolic event id, e.g. "T1#1" (event 1 of trade 1, cb_<id>_1 on the wire), "T1#2" for its first replay. */
  event: string;
  attempt: number;
  /** Answer status, or null when none came. */
  status: number | null;
  /** Sent as the first attempt of a `slow` step: its answer is treated as too late. */
  late?: boolean;
  error?: string;
}

export interface ScheduleRun {
  deliveries: Delivery[];
  /** The probe's reading per trade (index as in the schedule), when there is a probe. */
  probes?: ProbeAnswer[];
}

/** The trade ids and orders of one run: unique per run of the fuzzer, never printed. */
export function runTrades(nonce: string, run: number, schedule: Schedule, target: FuzzTarget): Array<{ id: string; order: string; state: TradeState; body: string }> {
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
    // The body of the trade's one callback: the trade in its final state exactly as GET returns
    // it, serialized as the dispatcher serializes it (src/trades/trade-json.ts).
    return { id, order, state: trade.final, body: JSON.stringify(toTrade({ ...record, state: trade.final }, 'get', target.publicUrl)) };
  });
}

/**
 * Sends one schedule to the receiver, one callback after another, then reads the probe for
 * each trade. Callbacks are signed as the sandbox signs them (X-Signature: hex HMAC-SHA256 of
 * the raw body keyed with the merchant's secret); bodies are the trade as GET returns it.
 */
export async function runSchedule(schedule: Schedule, target: FuzzTarget, nonce: string, run: number): Promise<ScheduleRun> {
  const trades = runTrades(nonce, run, schedule, target);
  const attempts = new Map<string, number>();
  const replays = new Map<number, number>();
  const deliveries: Delivery[] = [];

  const send = async (stepNo: number, step: Step, late = false): Promise<void> => {
    const trade = trades[step.trade]!;
    const body = trade.body;
    // Event 1 is the trade's state change; a replay is a new event, numbered on (as the dispatcher numbers them).
    let seq = 1;
    if (step.kind === 'replay') {
      const count = (replays.get(step.trade) ?? 0) + 1;
      replays.set(step.trade, count);
      seq = 1 + count;
    }
    const event = `T${step.trade + 1}#${seq}`;
    const attempt = (attempts.get(event) ?? 0) + 1;
    attempts.set(event, attempt);
    const signature = signatureFor(step.kind, target, body);
    const answer = await target.sender.send({
      url: target.url,
      body,
      timeoutMs: target.timeoutMs,
      headers: {
        ...(signature !== undefined ? { 'X-Signature': signature } : {}),
        'X-Sandbox-Event-Id': `cb_${trade.id}_${seq}`,
        'X-Sandbox-Attempt': String(attempt),
      },
    });
    deliveries.push({
      step: stepNo,
      trade: step.trade,
      state: trade.state,
      kind: step.kind,
      event,
      attempt,
      status: answer.status,
      ...(late ? { late: true } : {}),
      ...(answer.status === null && answer.error !== undefined ? { error: answer.error } : {}),
    });
  };

  for (const [index, step] of schedule.steps.entries()) {
    if (step.kind === 'slow') {
      // The answer of the first attempt counts as too late; the retry follows.
      await send(index + 1, step, true);
      await send(index + 1, step);
    } else {
      await send(index + 1, step);
    }
  }
  if (target.probe === undefined) return { deliveries };
  const probes: ProbeAnswer[] = [];
  for (const trade of trades) probes.push(await readProbe(target.probe, trade.order, target.timeoutMs));
  return { deliveries, probes };
}

function signatureFor(kind: StepKind, target: FuzzTarget, body: string): string | undefined {
  switch (kind) {
    case 'no_signature':
      return undefined;
    case 'wrong_signature':
      return sign(`${target.merchant.secret}:not-the-secret`, body);
    case 'other_merchant':
      return sign(target.otherSecret, body);
    default:
      return sign(target.merchant.secret, body);
  }
}
