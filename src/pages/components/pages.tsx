import type { PaymentView } from '../payment-view.js';
import { explainState } from '../payment-view.js';
import { CardForm, type CardFormState } from './card-form.js';
import { Layout } from './layout.js';
import { P2pForm } from './p2p-form.js';
import { TradeSummary } from './trade-summary.js';

const HEADINGS = {
  created: { icon: '⏳', text: 'Waiting for payment' },
  ecom: { icon: '⏳', text: 'Waiting for payment' },
  confirmed: { icon: '✅', text: 'Payment received' },
  canceled: { icon: '✖', text: 'Payment canceled' },
  expired: { icon: '⌛', text: 'Time to pay has expired' },
} as const;

function Footer(props: { view: PaymentView }) {
  return (
    <footer>
      Trade <span class="mono">{props.view.trade.id}</span> · {props.view.trade.type}
    </footer>
  );
}

/** The state of a trade and a way back: the result page, and the payment page of a final trade. */
function Outcome(props: { view: PaymentView; message?: string | undefined }) {
  const { view } = props;
  const heading = HEADINGS[view.trade.state];
  return (
    <section class="panel result" aria-live="polite">
      {props.message && (
        <div class="notice info" data-testid="notice">
          {props.message}
        </div>
      )}
      <div class="icon" aria-hidden="true">
        {heading.icon}
      </div>
      <h1 data-testid="result-title">{heading.text}</h1>
      <p>
        State <span class={`badge ${view.trade.state}`} data-testid="state">{view.trade.state}</span>
      </p>
      <p class="reason" data-testid="reason">
        {explainState(view)}
      </p>
      {view.returnUrl ? (
        <a class="back" href={view.returnUrl} data-testid="back">
          Return to {view.merchantName}
        </a>
      ) : view.final ? (
        <p class="muted">You can close this page.</p>
      ) : (
        <a class="back" href={`${view.base}/pay/${view.trade.id}`} data-testid="back">
          Go to the payment page
        </a>
      )}
    </section>
  );
}

/** GET /pay/:id: the form for a trade waiting for payment, its outcome once it is final. */
export function PaymentPage(props: { view: PaymentView; card?: CardFormState; message?: string }) {
  const { view } = props;
  return (
    <Layout title={`Pay ${view.merchantName}`}>
      <section class="panel">
        <TradeSummary view={view} />
      </section>
      {view.final ? <Outcome view={view} message={props.message} /> : view.trade.type === 'ecom' ? <CardForm view={view} state={props.card ?? {}} /> : <P2pForm view={view} />}
      <Footer view={view} />
    </Layout>
  );
}

/** GET /pay/:id/result: where the payer lands when the trade has no return_url. */
export function ResultPage(props: { view: PaymentView }) {
  return (
    <Layout title={`${HEADINGS[props.view.trade.state].text} · ${props.view.merchantName}`}>
      <section class="panel">
        <TradeSummary view={props.view} />
      </section>
      <Outcome view={props.view} />
      <Footer view={props.view} />
    </Layout>
  );
}

/** An unknown trade id. */
export function NotFoundPage(props: { id: string }) {
  return (
    <Layout title="Trade not found">
      <section class="panel" data-testid="not-found">
        <h1>Trade not found</h1>
        <p>
          The sandbox has no trade <span class="mono">{props.id}</span>.
        </p>
        <p class="muted">
          Open the payment_data.url returned when the trade was created. Trades are gone after a reset, or after a restart of a sandbox started with
          --in-memory.
        </p>
      </section>
    </Layout>
  );
}
