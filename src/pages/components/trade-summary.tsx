import { formatClockTime, formatCountdown, formatDateTime, formatMoney } from '../format.js';
import type { PageContext } from '../page-context.js';
import type { PaymentView } from '../payment-view.js';

/**
 * "Pay before HH:MM UTC": the server cannot know the payer's time zone, so it writes sandbox time
 * (UTC) in a <time> whose datetime pay.js shows again in the browser's zone and the page's
 * language ("Оплатите до 00:11 GMT+3"); its title keeps the full UTC time. Without the script the
 * UTC text stays. The catalogue's message is cut at its {time}, so either language may put the
 * time anywhere in its sentence.
 */
function PayBefore(props: { at: number; ctx: PageContext }) {
  const { at, ctx } = props;
  const CUT = '\u0000';
  const [before = '', after = ''] = ctx.t('summary.payBefore', { time: CUT }).split(CUT);
  return (
    <span data-testid="deadline">
      {before}
      <time datetime={new Date(at).toISOString()} title={formatDateTime(at, ctx.lang)} data-testid="deadline-time">
        {formatClockTime(at, ctx.lang)}
      </time>
      {after}
    </span>
  );
}

/**
 * Merchant, order, amount and, when a pending step expires the trade, the deadline (PayBefore)
 * and the time left (pay.js makes it tick on a real clock and turns the page into the result
 * once the trade is final).
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
          <PayBefore at={view.expiresAt} ctx={ctx} />
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
