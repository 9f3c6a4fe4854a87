import { formatMoney, groupCard } from '../format.js';
import type { PageContext } from '../page-context.js';
import type { PaymentView } from '../payment-view.js';
import { TEST_CARDS, testCardsHint, type CardError, type CardField, type CardForm as CardFormValues } from '../test-cards.js';
import { Unbroken } from './unbroken.js';

export interface CardFormState {
  values?: CardFormValues;
  errors?: Partial<Record<CardField, CardError>>;
  /** A message over the form, already in the page's language. */
  notice?: { kind: 'error' | 'info'; text: string };
}

function Field(props: { name: CardField; label: string; state: CardFormState; ctx: PageContext; placeholder: string; autocomplete: string; maxlength: number; value?: string | undefined }) {
  const problem = props.state.errors?.[props.name];
  const error = problem && props.ctx.t(problem.key, { ...problem.params, cards: testCardsHint(props.ctx.t) });
  const id = `card-${props.name}`;
  return (
    <div class="field">
      <label for={id}>
        <Unbroken text={props.label} />
      </label>
      <input
        id={id}
        name={props.name}
        data-testid={props.name === 'number' ? 'card-number' : `card-${props.name}`}
        inputmode="numeric"
        autocomplete={props.autocomplete}
        placeholder={props.placeholder}
        maxlength={props.maxlength}
        value={props.value ?? ''}
        aria-invalid={error ? 'true' : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      />
      {error && (
        <p class="field-error" id={`${id}-error`} data-testid={`error-${props.name}`}>
          <Unbroken text={error} />
        </p>
      )}
    </div>
  );
}

/** The test cards and what each does, under the card form. */
export function TestCardsTable(props: { ctx: PageContext }) {
  const { t } = props.ctx;
  return (
    <details class="test-cards" data-testid="test-cards">
      <summary>{t('card.testCards')}</summary>
      <p class="muted">
        <Unbroken text={t('card.testCardsHint')} />
      </p>
      <table>
        <thead>
          <tr>
            <th scope="col">{t('card.number')}</th>
            <th scope="col">{t('card.result')}</th>
          </tr>
        </thead>
        <tbody>
          {TEST_CARDS.map((card) => (
            <tr data-testid="test-card" data-outcome={card.outcome}>
              <td class="mono card-number">{groupCard(card.number)}</td>
              <td>
                <b>
                  <Unbroken text={t(`card.outcome.${card.outcome}`)} />
                </b>
                : <Unbroken text={t(card.reason)} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}

/** Ecom trades: a card form checked on the server against the test cards. */
export function CardForm(props: { view: PaymentView; ctx: PageContext; state?: CardFormState }) {
  const { trade } = props.view;
  const { ctx } = props;
  const { t, base, query } = ctx;
  const state = props.state ?? {};
  return (
    <section class="panel" aria-labelledby="pay-title">
      <h1 id="pay-title">{t('card.title')}</h1>
      {state.notice && (
        <div class={`notice ${state.notice.kind}`} data-testid="notice" role={state.notice.kind === 'error' ? 'alert' : 'status'}>
          <Unbroken text={state.notice.text} />
        </div>
      )}
      <form method="post" action={`${base}/pay/${trade.id}/pay${query}`} novalidate>
        <Field name="number" label={t('card.number')} state={state} ctx={ctx} placeholder="4242 4242 4242 4242" autocomplete="cc-number" maxlength={23} value={state.values?.number} />
        <div class="row">
          <Field name="expiry" label={t('card.expiry')} state={state} ctx={ctx} placeholder="12/30" autocomplete="cc-exp" maxlength={7} value={state.values?.expiry} />
          <Field name="cvc" label={t('card.cvc')} state={state} ctx={ctx} placeholder="123" autocomplete="cc-csc" maxlength={4} />
        </div>
        <div class="actions">
          <button type="submit" class="primary" data-testid="pay">
            {t('card.pay', { amount: formatMoney(trade.amount_cents, ctx.lang) })}
          </button>
          <button type="submit" class="danger" data-testid="cancel" formaction={`${base}/pay/${trade.id}/cancel${query}`}>
            {t('action.cancel')}
          </button>
        </div>
      </form>
      <TestCardsTable ctx={ctx} />
    </section>
  );
}
