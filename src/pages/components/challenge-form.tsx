import { formatMoney } from '../format.js';
import type { PageContext } from '../page-context.js';
import type { PaymentView } from '../payment-view.js';
import { maskCard } from '../test-cards.js';
import { Unbroken } from './unbroken.js';

/**
 * The 3-D Secure step of a challenged test card: the bank's code prompt. The card number
 * travels in a hidden field, so the step needs no server-side session.
 */
export function ChallengeForm(props: { view: PaymentView; ctx: PageContext; card: string }) {
  const { view, ctx, card } = props;
  const { t, base, query } = ctx;
  return (
    <section class="panel challenge" aria-labelledby="challenge-title" data-testid="3ds">
      <h1 id="challenge-title">
        <Unbroken text={t('3ds.title')} />
      </h1>
      <p>
        <Unbroken text={t('3ds.intro', { amount: formatMoney(view.trade.amount_cents, ctx.lang), merchant: view.merchantName, card: maskCard(card) })} />
      </p>
      <form method="post" action={`${base}/pay/${view.trade.id}/3ds${query}`} id="challenge-form">
        <input type="hidden" name="card" value={card} />
        <div class="field">
          <label for="code">{t('3ds.code')}</label>
          <input id="code" name="code" data-testid="3ds-code" inputmode="numeric" autocomplete="one-time-code" maxlength={8} aria-describedby="code-hint" autofocus />
          <p class="muted small" id="code-hint">
            <Unbroken text={t('3ds.hint')} />
          </p>
        </div>
        <div class="actions">
          <button type="submit" class="primary" data-testid="3ds-submit">
            {t('3ds.submit')}
          </button>
          <button type="submit" class="danger" data-testid="3ds-cancel" name="action" value="cancel">
            {t('3ds.cancel')}
          </button>
        </div>
      </form>
    </section>
  );
}
