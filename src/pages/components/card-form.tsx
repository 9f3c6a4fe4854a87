import { formatRubles, groupCard } from '../format.js';
import type { PaymentView } from '../payment-view.js';
import { describeOutcome, TEST_CARDS, type CardField, type CardForm as CardFormValues } from '../test-cards.js';

export interface CardFormState {
  values?: CardFormValues;
  errors?: Partial<Record<CardField, string>>;
  /** A message over the form: an error, or what a "pending" test card did. */
  notice?: { kind: 'error' | 'info'; text: string };
}

function Field(props: { name: CardField; label: string; state: CardFormState; placeholder: string; autocomplete: string; maxlength: number; value?: string | undefined }) {
  const error = props.state.errors?.[props.name];
  const id = `card-${props.name}`;
  return (
    <div class="field">
      <label for={id}>{props.label}</label>
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
          {error}
        </p>
      )}
    </div>
  );
}

/** Ecom trades: a card form checked on the server against the test cards. */
export function CardForm(props: { view: PaymentView; state?: CardFormState }) {
  const { trade } = props.view;
  const state = props.state ?? {};
  return (
    <section class="panel" aria-labelledby="pay-title">
      <h1 id="pay-title">Pay by card</h1>
      {state.notice && (
        <div class={`notice ${state.notice.kind}`} data-testid="notice" role={state.notice.kind === 'error' ? 'alert' : 'status'}>
          {state.notice.text}
        </div>
      )}
      <form method="post" action={`${props.view.base}/pay/${trade.id}/pay`} novalidate>
        <Field name="number" label="Card number" state={state} placeholder="4242 4242 4242 4242" autocomplete="cc-number" maxlength={23} value={state.values?.number} />
        <div class="row">
          <Field name="expiry" label="Expiry (MM/YY)" state={state} placeholder="12/30" autocomplete="cc-exp" maxlength={7} value={state.values?.expiry} />
          <Field name="cvc" label="CVC" state={state} placeholder="123" autocomplete="cc-csc" maxlength={4} />
        </div>
        <div class="actions">
          <button type="submit" class="primary" data-testid="pay">
            Pay {formatRubles(trade.amount_cents)}
          </button>
          <button type="submit" class="danger" data-testid="cancel" formaction={`${props.view.base}/pay/${trade.id}/cancel`}>
            Cancel
          </button>
        </div>
      </form>
      <details class="test-cards" data-testid="test-cards">
        <summary>Test cards</summary>
        <p class="muted">Any future expiry (MM/YY) and any 3-digit CVC.</p>
        <table>
          <thead>
            <tr>
              <th>Card number</th>
              <th>Result</th>
            </tr>
          </thead>
          <tbody>
            {TEST_CARDS.map((card) => (
              <tr>
                <td class="mono">{groupCard(card.number)}</td>
                <td>
                  {describeOutcome(card.outcome)}: {card.reason}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </section>
  );
}
