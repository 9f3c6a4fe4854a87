import { zValidator } from '@hono/zod-validator';
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { refusalError } from '../api/refusal-error.js';
import { Refusal } from '../refusals/refusal.js';
import { errors } from '../errors.js';
import type { Sandbox } from '../sandbox.js';
import type { TradeState } from '../trades/trade.js';
import type { CardFormState } from './components/card-form.js';
import { NotFoundPage, PaymentPage, ResultPage } from './components/pages.js';
import { groupCard } from './format.js';
import { paymentView, type PaymentView } from './payment-view.js';
import { page, securityHeaders } from './respond.js';
import { cardFormSchema, checkCard } from './test-cards.js';

/** Largest form body the payment page reads, in bytes. */
export const FORM_BODY_LIMIT = 16 * 1024;

/** The hosted payment page (payment_data.url), mounted at /pay. */
export function paymentRoutes(sandbox: Sandbox) {
  const app = new Hono();
  app.use('*', securityHeaders);
  // The card form is three short fields: a larger body is refused (413) before it is read whole.
  app.use(
    '*',
    bodyLimit({
      maxSize: FORM_BODY_LIMIT,
      onError: () => {
        throw errors.tooLarge(FORM_BODY_LIMIT);
      },
    }),
  );

  const notFound = (c: Context, id: string) => page(c, <NotFoundPage id={id.slice(0, 100)} />, 404);
  const showForm = (c: Context, view: PaymentView, card: CardFormState, status: 200 | 422) => page(c, <PaymentPage view={view} card={card} />, status);
  const alreadyFinal = (c: Context, view: PaymentView) =>
    page(c, <PaymentPage view={view} message={`This trade is already ${view.trade.state}; nothing was changed.`} />, 409);

  /** Moves the trade through the lifecycle (history cause "page"), then sends the payer on. */
  const settle = async (c: Context, view: PaymentView, to: TradeState, note: string) => {
    const moved = sandbox.lifecycle.transition(view.trade.id, to, 'page', note);
    if (moved instanceof Refusal) {
      const now = moved.kind === 'conflict' ? paymentView(sandbox, view.trade.id) : undefined;
      if (now) return alreadyFinal(c, now);
      throw refusalError(moved);
    }
    await sandbox.store.commit();
    return c.redirect(view.returnUrl ?? `/pay/${view.trade.id}/result`, 303);
  };

  app.get('/:id', (c) => {
    const id = c.req.param('id');
    const view = paymentView(sandbox, id);
    if (!view) return notFound(c, id);
    return page(c, <PaymentPage view={view} />);
  });

  app.get('/:id/result', (c) => {
    const id = c.req.param('id');
    const view = paymentView(sandbox, id);
    if (!view) return notFound(c, id);
    return page(c, <ResultPage view={view} />);
  });

  app.post(
    '/:id/pay',
    zValidator('form', cardFormSchema, (result, c) => {
      if (result.success) return;
      const id = c.req.param('id') ?? '';
      const view = paymentView(sandbox, id);
      if (!view) return notFound(c, id);
      if (view.final) return alreadyFinal(c, view);
      return showForm(c, view, { notice: { kind: 'error', text: 'The form could not be read: each field must be text of at most 64 characters. Nothing was changed.' } }, 422);
    }),
    async (c) => {
      const id = c.req.param('id');
      const view = paymentView(sandbox, id);
      if (!view) return notFound(c, id);
      if (view.final) return alreadyFinal(c, view);
      if (view.trade.type !== 'ecom') {
        return settle(c, view, 'confirmed', 'The payer pressed "I have paid" on the payment page.');
      }
      const form = c.req.valid('form');
      const values = { ...(form.number !== undefined ? { number: form.number } : {}), ...(form.expiry !== undefined ? { expiry: form.expiry } : {}) };
      const check = checkCard(form, sandbox.clock.now());
      if (!check.ok) {
        return showForm(c, view, { values, errors: check.errors, notice: { kind: 'error', text: 'The card was not charged. Correct the fields marked below; nothing was changed.' } }, 422);
      }
      const { card } = check;
      const masked = `${groupCard(card.number).slice(0, 4)} •••• ${card.number.slice(-4)}`;
      if (card.outcome === 'pending') {
        return showForm(c, view, { values, notice: { kind: 'info', text: `${card.reason} The trade is still ${view.trade.state}; move it from the dashboard, or let its scenario decide.` } }, 200);
      }
      return settle(c, view, card.outcome, `Test card ${masked}: ${card.reason}`);
    },
  );

  app.post('/:id/cancel', async (c) => {
    const id = c.req.param('id');
    const view = paymentView(sandbox, id);
    if (!view) return notFound(c, id);
    if (view.final) return alreadyFinal(c, view);
    return settle(c, view, 'canceled', 'The payer canceled the payment on the payment page.');
  });

  return app;
}
