import { formatClockTime, formatCountdown, formatMoney } from '../format.js';
import type { PageContext } from '../page-context.js';
import type { PaymentView } from '../payment-view.js';

/**
 * Merchant, order, amount and, when a pending step expires the trade, the deadline: "pay
 * before HH:MM" in sandbox time with its zone, and the time left (pay.js makes it tick on a
 * real clock and turns the page into the result once the trade is final).
 */
export function TradeSummary(props: { view: PaymentView; ctx: PageContext }) {
  const { view, ctx } = props;
  const { t } = ctx;
  return (
    <>
      <p class="merchant" data-testid="merchant">
        {view.merchantName}
      </p>
      <p class="order">
        {t('summary.order')} <span data-testid="order">{view.trade.order}</span>
      </p>
      <div class="amount" data-testid="amount">
        {formatMoney(view.trade.amount_cents, ctx.lang)}
      </div>
      {view.expiresInMs !== undefined && view.expiresAt !== undefined && (
        <div
          class="countdown"
          data-testid="countdown"
          data-remaining-ms={String(view.expiresInMs)}
          data-clock={view.clockMode}
          data-status-url={`${ctx.base}/pay/${view.trade.id}/status`}
          role="timer"
        >
          <span data-testid="deadline">{t('summary.payBefore', { time: formatClockTime(view.expiresAt, ctx.lang) })}</span>
          <span>
            {t('summary.timeLeft')} <b data-testid="time-left">{formatCountdown(view.expiresInMs)}</b>
          </span>
          {view.clockMode === 'manual' && (
            <span class="note" data-testid="manual-clock">
              {t('summary.manualClock')}
            </span>
          )}
        </div>
      )}
    </>
  );
}
