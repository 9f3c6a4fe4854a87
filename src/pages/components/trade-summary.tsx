import { formatCountdown, formatRubles } from '../format.js';
import type { PaymentView } from '../payment-view.js';

/** Merchant, order, amount and the time left to pay, at the top of every payment-side page. */
export function TradeSummary(props: { view: PaymentView }) {
  const { view } = props;
  return (
    <>
      <p class="merchant" data-testid="merchant">
        {view.merchantName}
      </p>
      <p class="order">
        Order <span data-testid="order">{view.trade.order}</span>
      </p>
      <div class="amount" data-testid="amount">
        {formatRubles(view.trade.amount_cents)}
      </div>
      {view.expiresInMs !== undefined && (
        <div class="countdown" data-testid="countdown" data-remaining-ms={String(view.expiresInMs)} data-clock={view.clockMode}>
          <span>Time left to pay</span>
          <b>{formatCountdown(view.expiresInMs)}</b>
          {view.clockMode === 'manual' && <span class="note">The sandbox clock is manual: this time passes only when the clock is advanced.</span>}
        </div>
      )}
    </>
  );
}
