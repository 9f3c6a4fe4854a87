import { formatPhone, groupCard } from '../format.js';
import type { PaymentView } from '../payment-view.js';

/** P2P trades (any_bank, nspk): where to transfer the money, then "I have paid" or "Cancel". */
export function P2pForm(props: { view: PaymentView }) {
  const { trade } = props.view;
  const { requisites } = trade;
  const phone = trade.type === 'nspk';
  return (
    <section class="panel" aria-labelledby="pay-title">
      <h1 id="pay-title">{phone ? 'Pay by phone number (SBP)' : 'Pay by card transfer'}</h1>
      <dl class="requisites">
        <div>
          <dt>{phone ? 'Phone number' : 'Card number'}</dt>
          <dd>
            <span class="number" data-testid="requisites-number">
              {phone ? formatPhone(requisites.number) : groupCard(requisites.number)}
            </span>
            <button type="button" class="copy" data-testid="copy" data-copy={requisites.number} hidden>
              Copy
            </button>
          </dd>
        </div>
        <div>
          <dt>Bank</dt>
          <dd data-testid="requisites-bank">{requisites.bank_name}</dd>
        </div>
        <div>
          <dt>Recipient</dt>
          <dd data-testid="requisites-name">{requisites.name}</dd>
        </div>
      </dl>
      <form method="post" action={`${props.view.base}/pay/${trade.id}/pay`} class="actions">
        <button type="submit" class="primary" data-testid="pay">
          I have paid
        </button>
        <button type="submit" class="danger" data-testid="cancel" formaction={`${props.view.base}/pay/${trade.id}/cancel`}>
          Cancel
        </button>
      </form>
    </section>
  );
}
