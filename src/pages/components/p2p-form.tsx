import { raw } from 'hono/html';
import { formatMoney, formatPhone, groupCard } from '../format.js';
import type { PageContext } from '../page-context.js';
import type { PaymentView } from '../payment-view.js';
import { qrSvg, sbpPayload } from '../sbp-qr.js';

/** P2P trades (any_bank, nspk): where to transfer the money (an SBP QR code for nspk), then "I have paid" or "Cancel". */
export function P2pForm(props: { view: PaymentView; ctx: PageContext }) {
  const { trade } = props.view;
  const { t, base, query } = props.ctx;
  const { requisites } = trade;
  const phone = trade.type === 'nspk';
  return (
    <section class="panel" aria-labelledby="pay-title">
      <h1 id="pay-title">{phone ? t('p2p.titlePhone') : t('p2p.titleCard')}</h1>
      {phone && (
        <figure class="sbp-qr">
          <div
            class="qr"
            data-testid="sbp-qr"
            role="img"
            aria-label={t('p2p.qrLabel', { phone: formatPhone(requisites.number), amount: formatMoney(trade.amount_cents, props.ctx.lang), name: requisites.name })}
          >
            {raw(qrSvg(sbpPayload(trade)))}
          </div>
          <figcaption>
            {t('p2p.qrCaption')} <span class="muted">{t('p2p.qrNote')}</span>
          </figcaption>
        </figure>
      )}
      <dl class="requisites">
        <div>
          <dt>{phone ? t('p2p.phone') : t('p2p.cardNumber')}</dt>
          <dd>
            <span class="number" data-testid="requisites-number">
              {phone ? formatPhone(requisites.number) : groupCard(requisites.number)}
            </span>
            <button type="button" class="copy" data-testid="copy" data-copy={requisites.number} data-copied={t('p2p.copied')} data-copy-failed={t('p2p.copyFailed')} hidden>
              {t('p2p.copy')}
            </button>
          </dd>
        </div>
        <div>
          <dt>{t('p2p.bank')}</dt>
          <dd data-testid="requisites-bank">{requisites.bank_name}</dd>
        </div>
        <div>
          <dt>{t('p2p.recipient')}</dt>
          <dd data-testid="requisites-name">{requisites.name}</dd>
        </div>
      </dl>
      <form method="post" action={`${base}/pay/${trade.id}/pay${query}`} class="actions">
        <button type="submit" class="primary" data-testid="pay">
          {t('p2p.paid')}
        </button>
        <button type="submit" class="danger" data-testid="cancel" formaction={`${base}/pay/${trade.id}/cancel${query}`}>
          {t('action.cancel')}
        </button>
      </form>
    </section>
  );
}
