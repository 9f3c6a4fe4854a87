import type { PageContext } from '../page-context.js';
import type { PaymentView } from '../payment-view.js';
import { explainState, stateWord } from '../payment-view.js';
import type { StateName } from '../../trades/trade.js';
import { CardForm, type CardFormState } from './card-form.js';
import { ChallengeForm } from './challenge-form.js';
import { Icon } from './icons.js';
import { Layout } from './layout.js';
import { P2pForm } from './p2p-form.js';
import { TradeSummary } from './trade-summary.js';
import { Unbroken } from './unbroken.js';

const HEADINGS = {
  created: { icon: 'waiting', key: 'heading.waiting' },
  ecom: { icon: 'waiting', key: 'heading.waiting' },
  confirmed: { icon: 'confirmed', key: 'heading.confirmed' },
  canceled: { icon: 'canceled', key: 'heading.canceled' },
  expired: { icon: 'expired', key: 'heading.expired' },
} as const;

/** The heading of a state: a provider profile's intermediate state (or an earlier profile's) is a payment being processed. */
const headingOf = (state: StateName) => HEADINGS[state as keyof typeof HEADINGS] ?? ({ icon: 'waiting', key: 'heading.processing' } as const);

function Footer(props: { view: PaymentView; ctx: PageContext }) {
  return (
    <footer>
      {props.ctx.t('footer.trade')} <span class="mono">{props.view.trade.id}</span> · <span data-testid="trade-type">{props.ctx.t(`type.${props.view.trade.type}`)}</span>
    </footer>
  );
}

/**
 * The state of a trade and a way back: the result page, and the payment page of a trade that no
 * longer waits for payment. A trade being processed (an intermediate state) names the status URL
 * pay.js polls, to show the result once it moves on.
 */
function Outcome(props: { view: PaymentView; ctx: PageContext; message?: string | undefined }) {
  const { view, ctx } = props;
  const { t } = ctx;
  const heading = headingOf(view.trade.state);
  const watch = view.intermediate ? { 'data-watch-url': `${ctx.base}/pay/${view.trade.id}/status`, 'data-watch-state': view.trade.state } : {};
  return (
    <section class="panel result" aria-live="polite" {...watch}>
      {props.message && (
        <div class="notice info" data-testid="notice">
          <Unbroken text={props.message} />
        </div>
      )}
      <Icon name={heading.icon} />
      <h1 data-testid="result-title">{t(heading.key)}</h1>
      <p>
        {t('result.state')}{' '}
        <span class={`badge ${view.trade.state}`} data-testid="state" data-state={view.trade.state}>
          {stateWord(view.trade.state, t)}
        </span>
      </p>
      <p class="reason" data-testid="reason">
        <Unbroken text={explainState(view, t, ctx.lang)} />
      </p>
      {view.returnUrl ? (
        <a class="back" href={view.returnUrl} data-testid="back">
          {t('result.return', { merchant: view.merchantName })}
        </a>
      ) : view.final ? (
        <p class="muted">{t('result.close')}</p>
      ) : (
        <a class="back" href={`${ctx.base}/pay/${view.trade.id}${ctx.query}`} data-testid="back">
          {t('result.toPayment')}
        </a>
      )}
    </section>
  );
}

/** GET /pay/:id: the form for a trade waiting for payment; once it no longer waits, its state (being processed, or final). */
export function PaymentPage(props: { view: PaymentView; ctx: PageContext; card?: CardFormState; message?: string }) {
  const { view, ctx } = props;
  return (
    <Layout title={ctx.t('title.pay', { merchant: view.merchantName })} ctx={ctx}>
      <section class="panel">
        <TradeSummary view={view} ctx={ctx} />
      </section>
      {!view.waiting ? (
        <Outcome view={view} ctx={ctx} message={props.message} />
      ) : view.trade.type === 'ecom' ? (
        <CardForm view={view} ctx={ctx} state={props.card ?? {}} />
      ) : (
        <P2pForm view={view} ctx={ctx} />
      )}
      <Footer view={view} ctx={ctx} />
    </Layout>
  );
}

/** The answer to a challenged test card: the bank's 3-D Secure code prompt. */
export function ChallengePage(props: { view: PaymentView; ctx: PageContext; card: string }) {
  const { view, ctx } = props;
  return (
    <Layout title={ctx.t('title.challenge', { merchant: view.merchantName })} ctx={ctx} postSwitch={{ action: `${ctx.base}/pay/${view.trade.id}/3ds`, card: props.card }}>
      <section class="panel">
        <TradeSummary view={view} ctx={ctx} />
      </section>
      <ChallengeForm view={view} ctx={ctx} card={props.card} />
      <Footer view={view} ctx={ctx} />
    </Layout>
  );
}

/** GET /pay/:id/result: where the payer lands when the trade has no return_url. */
export function ResultPage(props: { view: PaymentView; ctx: PageContext }) {
  const { view, ctx } = props;
  return (
    <Layout title={`${ctx.t(headingOf(view.trade.state).key)} · ${view.merchantName}`} ctx={ctx}>
      <section class="panel">
        <TradeSummary view={view} ctx={ctx} />
      </section>
      <Outcome view={view} ctx={ctx} />
      <Footer view={view} ctx={ctx} />
    </Layout>
  );
}

/** An unknown trade id. */
export function NotFoundPage(props: { id: string; ctx: PageContext }) {
  const { t } = props.ctx;
  return (
    <Layout title={t('title.notFound')} ctx={props.ctx}>
      <section class="panel" data-testid="not-found">
        <h1>{t('title.notFound')}</h1>
        <p>{t('notFound.text', { id: props.id })}</p>
        <p class="muted">{t('notFound.hint')}</p>
      </section>
    </Layout>
  );
}
