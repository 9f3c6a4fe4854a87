import type { ClockMode } from '../clock/clock.js';
import { TIMELINE_JOB } from '../lifecycle/timeline.js';
import { isFinal } from '../lifecycle/transitions.js';
import type { Sandbox } from '../sandbox.js';
import type { HistoryEntry, TradeRecord } from '../trades/trade.js';
import { safeReturnUrl } from './format.js';

/** What the payment and result pages show about one trade. Plain data, no HTTP. */
export interface PaymentView {
  trade: TradeRecord;
  merchantName: string;
  final: boolean;
  /** Sandbox milliseconds until a scheduled step expires the trade, when one is pending. */
  expiresInMs?: number;
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
  const expiry = final
    ? undefined
    : sandbox.scheduler.pending((job) => job.trade === trade.id && job.kind === TIMELINE_JOB && job.data['state'] === 'expired')[0];
  const returnUrl = safeReturnUrl(trade.return_url);
  return {
    trade,
    merchantName: sandbox.merchants.get(trade.merchant)?.name ?? 'Unknown merchant',
    final,
    ...(expiry ? { expiresInMs: Math.max(0, expiry.due - sandbox.clock.now()) } : {}),
    clockMode: sandbox.clock.mode,
    ...(returnUrl ? { returnUrl } : {}),
    last: trade.history.at(-1),
    base: sandbox.basePath,
  };
}

/** One sentence on why the trade is in its state, for the result page. */
export function explainState(view: PaymentView): string {
  const { trade, last } = view;
  if (!view.final) return 'This trade is still waiting for payment.';
  if (last?.note) return last.note;
  const by =
    last?.cause === 'admin'
      ? ' from the sandbox dashboard or admin API'
      : last?.cause === 'scenario'
        ? ` by scenario ${trade.scenario ?? ''}`.trimEnd()
        : last?.cause === 'page'
          ? ' on this payment page'
          : '';
  switch (trade.state) {
    case 'confirmed':
      return `The payment was received${by}.`;
    case 'canceled':
      return `The payment was canceled${by}.`;
    default:
      return `The time to pay ran out${by}.`;
  }
}
