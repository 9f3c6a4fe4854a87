import { codedText } from '../i18n/coded-text.js';
import type { CoverageTally } from './coverage-tally.js';
import { printable } from './printable.js';

/** How long after a lost answer a new order with the same amount and customer counts as the wrong recovery (sandbox clock). */
export const LOST_ANSWER_WINDOW_MS = 5 * 60_000;
/** Lost answers remembered per merchant (the oldest is forgotten first). */
const MAX_PENDING = 50;

/** The scenarios whose create answer does not arrive (or arrives too late), and their order prefixes. */
const LOST_SCENARIOS = new Set(['lost-answer', 'late-answer']);
const LOST_PREFIXES = ['sbx-lost-', 'sbx-late-'];

/** What a successful create tells the coverage. */
export interface CreatedTrade {
  order: string;
  amount: unknown;
  customer: unknown;
  /** The scenario that took the create, when one did. */
  scenario: string | undefined;
  /** Sandbox clock, ms. */
  at: number;
  /** The trade's id, when known. */
  trade: string | undefined;
}

interface Lost {
  order: string;
  amount: unknown;
  customer: unknown;
  at: number;
  trade: string | undefined;
}

/** Whether a create is one whose answer the sandbox loses on purpose (scenarios lost-answer, late-answer). */
export function isLostAnswer(order: string, scenario: string | undefined): boolean {
  return (scenario !== undefined && LOST_SCENARIOS.has(scenario)) || LOST_PREFIXES.some((prefix) => order.startsWith(prefix));
}

/**
 * Row create.lost_answer of one merchant, the same under every provider profile:
 * - `seen`: a create whose answer the sandbox lost on purpose (saved, then no answer, or the 201
 *   only after the scenario's delay);
 * - `handled`: the same order was sent again and answered (201, or 422 duplicate_order), so the
 *   merchant knows the first trade exists. Creates after that answer are not looked at: a new
 *   order for the payer is then the documented recovery when duplicate_order names no trade
 *   (profile `strict`), and harmless when it does (docs/surviving-failures.md);
 * - `wrong`: before any such retry, a new order with the same amount and customer was created
 *   within LOST_ANSWER_WINDOW_MS (the payer would be asked to pay twice).
 * A late answer's retry may be answered before its own 201 is written, which is when the create
 * reaches the coverage: a retry answered first still counts, and the late create then waits for
 * nothing.
 */
export class LostAnswers {
  #pending: Lost[] = [];
  /** Lost orders retried (422 duplicate_order) before their own create was counted: a late answer's 201 comes after its retry. */
  #retriedFirst: string[] = [];

  /** Whether a lost answer waits for its retry (then every create of the merchant is looked at). */
  get waiting(): boolean {
    return this.#pending.length > 0;
  }

  /** A create that succeeded, when it is a lost answer or one is waiting (see `waiting`). */
  created(coverage: CoverageTally, trade: CreatedTrade): void {
    if (isLostAnswer(trade.order, trade.scenario)) {
      if (this.#retried(coverage, trade.order)) return;
      // Retried and answered before this (late) 201 was written: handled already, nothing to wait for.
      const early = this.#retriedFirst.indexOf(trade.order);
      if (early >= 0) {
        this.#retriedFirst.splice(early, 1);
        return;
      }
      this.#pending.push({ order: trade.order, amount: trade.amount, customer: trade.customer, at: trade.at, trade: trade.trade });
      if (this.#pending.length > MAX_PENDING) this.#pending.shift();
      coverage.mark('create.lost_answer', 'seen', trade.trade, codedText('coverage.lost_answer.lost', { order: printable(trade.order) }));
      return;
    }
    if (this.#pending.length === 0) return;
    for (const lost of this.#pending) {
      if (lost.order === trade.order || lost.amount !== trade.amount || lost.customer !== trade.customer) continue;
      if (trade.at < lost.at || trade.at - lost.at > LOST_ANSWER_WINDOW_MS) continue;
      coverage.mark(
        'create.lost_answer',
        'wrong',
        lost.trade,
        trade.trade
          ? codedText('coverage.lost_answer.new_order_trade', { lost: printable(lost.order), order: printable(trade.order), trade: trade.trade })
          : codedText('coverage.lost_answer.new_order', { lost: printable(lost.order), order: printable(trade.order) }),
      );
      this.#pending = this.#pending.filter((other) => other !== lost);
      return;
    }
  }

  /** A create refused as a duplicate order: the retry of a lost answer, when the order is one. Returns true then. */
  duplicate(coverage: CoverageTally, order: string): boolean {
    if (this.#retried(coverage, order)) return true;
    if (!isLostAnswer(order, undefined)) return false;
    // Its own create is not counted yet (a late answer's 201 is still held back), or was forgotten.
    if (!this.#retriedFirst.includes(order)) this.#retriedFirst.push(order);
    if (this.#retriedFirst.length > MAX_PENDING) this.#retriedFirst.shift();
    coverage.mark('create.lost_answer', 'handled', undefined, codedText('coverage.lost_answer.retried', { order: printable(order) }));
    return true;
  }

  #retried(coverage: CoverageTally, order: string): boolean {
    const lost = this.#pending.find((candidate) => candidate.order === order);
    if (lost === undefined) return false;
    this.#pending = this.#pending.filter((other) => other !== lost);
    coverage.mark('create.lost_answer', 'handled', lost.trade, codedText('coverage.lost_answer.retried', { order: printable(order) }));
    return true;
  }
}
