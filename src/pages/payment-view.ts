import type { ClockMode } from '../clock/clock.js';
import { TIMELINE_JOB } from '../lifecycle/timeline.js';
import { isFinal, isWaiting } from '../lifecycle/transitions.js';
import type { Sandbox } from '../sandbox.js';
import { isTradeState, type HistoryEntry, type StateName, type TradeRecord } from '../trades/trade.js';
import { safeReturnUrl } from './format.js';
import type { Lang } from '../i18n/lang.js';
import { PAY_EN, type PayKey } from '../i18n/pay-en.js';
import type { Translate } from '../i18n/translator.js';

/** What the payment and result pages show about one trade. Plain data, no HTTP. */
export interface PaymentView {
  trade: TradeRecord;
  merchantName: string;
  final: boolean;
  /** Whether the trade still waits for payment (created, ecom): only then can the payer pay or cancel. */
  waiting: boolean;
  /**
   * Whether the trade is in a provider profile's intermediate state (e.g. processing: paid, not yet
   * final), or one an earlier profile had: the page shows it being processed and offers nothing to do.
   */
  intermediate: boolean;
  /** Sandbox milliseconds until a scheduled step expires the trade, when one is pending and the trade waits for payment. */
  expiresInMs?: number;
  /** Sandbox time (epoch ms) at which that step expires the trade. */
  expiresAt?: number;
  clockMode: ClockMode;
  /** The trade's return_url when it is an absolute http(s) URL. */
  returnUrl?: string;
  /** The history entry that moved the trade to its current state. */
  last: HistoryEntry | undefined;
  /** Path prefix of the page's own links: '' or the workspace's /w/<name>. */
  base: string;
}

const TRADE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The view of trade `id`, or undefined when there is no such trade. */
export function paymentView(sandbox: Sandbox, id: string): PaymentView | undefined {
  if (!TRADE_ID.test(id)) return undefined;
  const trade = sandbox.store.trades.get(id.toLowerCase());
  if (!trade) return undefined;
  const final = isFinal(trade.state);
  const waiting = isWaiting(trade.state);
  // The deadline is the payer's: once paid (an intermediate state), the page shows none.
  const expiry = waiting ? sandbox.scheduler.pending((job) => job.trade === trade.id && job.kind === TIMELINE_JOB && job.data['state'] === 'expired')[0] : undefined;
  const returnUrl = safeReturnUrl(trade.return_url);
  return {
    trade,
    merchantName: sandbox.merchants.get(trade.merchant)?.name ?? 'Unknown merchant',
    final,
    waiting,
    intermediate: !final && !waiting,
    ...(expiry ? { expiresInMs: Math.max(0, expiry.due - sandbox.clock.now()), expiresAt: expiry.due } : {}),
    clockMode: sandbox.clock.mode,
    ...(returnUrl ? { returnUrl } : {}),
    last: trade.history.at(-1),
    base: sandbox.basePath,
  };
}

/** Catalogue keys whose English text may end a page note ("Test card 4000 •••• 0002: <text>"). */
const NOTE_REASONS = (Object.keys(PAY_EN) as PayKey[]).filter((key) => key.startsWith('card.reason.') || key.startsWith('3ds.'));

/**
 * One sentence on why the trade is in its state, for the result page, in the page's
 * language. A test card's note is said again in that language; any other note (a
 * scenario's, an admin's) is shown as written in English pages, and summed up by state and
 * cause in the others.
 */
export function explainState(view: PaymentView, t: Translate<typeof PAY_EN>, lang: Lang): string {
  const { trade, last } = view;
  if (view.intermediate) return t('result.processing');
  if (!view.final) return t('result.waiting');
  const card = last?.cause === 'page' && last.note ? /^Test card (.+?): (.*)$/.exec(last.note) : null;
  if (card) {
    const reason = NOTE_REASONS.find((key) => PAY_EN[key] === card[2]);
    if (reason) return `${t('result.testCard', { card: card[1] ?? '' })}: ${t(reason)}`;
  }
  if (lang === 'en' && last?.note) return last.note;
  const state = trade.state === 'confirmed' || trade.state === 'canceled' ? trade.state : 'expired';
  const cause = last?.cause === 'admin' || last?.cause === 'scenario' || last?.cause === 'page' ? last.cause : undefined;
  return t(cause ? `result.${state}.${cause}` : `result.${state}`, { scenario: trade.scenario ?? '' });
}

/** A state in the page's words: the sandbox's own from the catalogue, a provider profile's intermediate state by its name ("being processed (processing)"). */
export function stateWord(state: StateName, t: Translate<typeof PAY_EN>): string {
  return isTradeState(state) ? t(`state.${state}`) : t('state.intermediate', { state });
}
