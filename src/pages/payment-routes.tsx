import { zValidator } from '@hono/zod-validator';
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import { FORM_BODY_LIMIT, formBody } from '../http/body.js';
import { refusalError } from '../http/refusal-error.js';
import { Refusal } from '../refusals/refusal.js';
import { errors } from '../http/errors.js';
import type { SandboxEnv } from '../http/sandbox-env.js';
import type { TradeState } from '../trades/trade.js';
import type { CardFormState } from './components/card-form.js';
import { ChallengePage, NotFoundPage, PaymentPage, ResultPage } from './components/pages.js';
import { type CodedText, codedText } from '../i18n/coded-text.js';
import { pageContext, type PageContext } from './page-context.js';
import { paymentView, type PaymentView } from './payment-view.js';
import { page, securityHeaders } from './respond.js';
import { cardFormSchema, cardNote, CHALLENGE_CODE, checkCard, TEST_CARDS } from './test-cards.js';

/** The 3-D Secure form: the challenged card (a hidden field), the code, and which button was pressed. */
export const challengeFormSchema = z.object({
  card: z.string().max(64).optional(),
  code: z.string().max(64).optional(),
  /** "cancel": the Cancel button; "lang": the language switch (the same step in the ?lang= language). */
  action: z.enum(['cancel', 'lang']).optional(),
});

/** The hosted payment page (payment_data.url), mounted at /pay. */
export function paymentRoutes() {
  const app = new Hono<SandboxEnv>();
  app.use('*', securityHeaders);
  // The card form is three short fields: a larger body is refused (413) before it is read whole.
  app.use('*', formBody(FORM_BODY_LIMIT));

  const ctxOf = (c: Context<SandboxEnv>): PageContext => {
    const sandbox = c.get('sandbox');
    return pageContext(c, sandbox.options.pageLang, sandbox.basePath);
  };
  const notFound = (c: Context<SandboxEnv>, id: string) => page(c, <NotFoundPage id={id.slice(0, 100)} ctx={ctxOf(c)} />, 404);
  const showForm = (c: Context<SandboxEnv>, view: PaymentView, card: CardFormState, status: 200 | 422) => page(c, <PaymentPage view={view} ctx={ctxOf(c)} card={card} />, status);
  const alreadyFinal = (c: Context<SandboxEnv>, view: PaymentView) => {
    const ctx = ctxOf(c);
    return page(c, <PaymentPage view={view} ctx={ctx} message={ctx.t('notice.alreadyFinal', { state: ctx.t(`state.${view.trade.state}`) })} />, 409);
  };

  /** Moves the trade through the lifecycle (history cause "page"), then sends the payer on. */
  const settle = async (c: Context<SandboxEnv>, view: PaymentView, to: TradeState, note: CodedText) => {
    const sandbox = c.get('sandbox');
    const moved = sandbox.lifecycle.transition(view.trade.id, to, 'page', note);
    if (moved instanceof Refusal) {
      const now = moved.kind === 'conflict' ? paymentView(sandbox, view.trade.id) : undefined;
      if (now) return alreadyFinal(c, now);
      throw refusalError(moved);
    }
    await sandbox.store.commit();
    const ctx = ctxOf(c);
    return c.redirect(view.returnUrl ?? `${ctx.base}/pay/${view.trade.id}/result${ctx.query}`, 303);
  };

  app.get('/:id', (c) => {
    const sandbox = c.get('sandbox');
    const id = c.req.param('id');
    const view = paymentView(sandbox, id);
    if (!view) return notFound(c, id);
    return page(c, <PaymentPage view={view} ctx={ctxOf(c)} />);
  });

  app.get('/:id/result', (c) => {
    const sandbox = c.get('sandbox');
    const id = c.req.param('id');
    const view = paymentView(sandbox, id);
    if (!view) return notFound(c, id);
    return page(c, <ResultPage view={view} ctx={ctxOf(c)} />);
  });

  /** What pay.js polls to keep the deadline true and to show the result once the trade is final. */
  app.get('/:id/status', (c) => {
    const sandbox = c.get('sandbox');
    const view = paymentView(sandbox, c.req.param('id'));
    if (!view) throw errors.notFound(`No trade with id "${c.req.param('id').slice(0, 100)}". Open the payment_data.url returned when the trade was created.`);
    return c.json({ state: view.trade.state, final: view.final, remaining_ms: view.expiresInMs ?? null, clock: view.clockMode });
  });

  /** A form the validator could not read: the trade's page again, saying so (or its 404 / 409). */
  const unreadableForm = (result: { success: boolean }, c: Context) => {
    if (result.success) return;
    const sandbox = (c as Context<SandboxEnv>).get('sandbox');
    const id = c.req.param('id') ?? '';
    const view = paymentView(sandbox, id);
    if (!view) return notFound(c, id);
    if (view.final) return alreadyFinal(c, view);
    return showForm(c, view, { notice: { kind: 'error', text: ctxOf(c).t('notice.unreadable') } }, 422);
  };

  app.post('/:id/pay', zValidator('form', cardFormSchema, unreadableForm), async (c) => {
    const sandbox = c.get('sandbox');
    const id = c.req.param('id');
    const view = paymentView(sandbox, id);
    if (!view) return notFound(c, id);
    if (view.final) return alreadyFinal(c, view);
    if (view.trade.type !== 'ecom') {
      return settle(c, view, 'confirmed', codedText('history.page.paid'));
    }
    const form = c.req.valid('form');
    const values = { ...(form.number !== undefined ? { number: form.number } : {}), ...(form.expiry !== undefined ? { expiry: form.expiry } : {}) };
    const check = checkCard(form, sandbox.clock.now());
    if (!check.ok) {
      return showForm(c, view, { values, errors: check.errors, notice: { kind: 'error', text: ctxOf(c).t('notice.notCharged') } }, 422);
    }
    const { card } = check;
    if (card.outcome === 'challenge' || card.reason === 'card.reason.challenge') return page(c, <ChallengePage view={view} ctx={ctxOf(c)} card={card.number} />);
    return settle(c, view, card.outcome, cardNote(card.number, card.reason));
  });

  app.post('/:id/3ds', zValidator('form', challengeFormSchema, unreadableForm), async (c) => {
    const sandbox = c.get('sandbox');
    const id = c.req.param('id');
    const view = paymentView(sandbox, id);
    if (!view) return notFound(c, id);
    if (view.final) return alreadyFinal(c, view);
    const form = c.req.valid('form');
    const card = TEST_CARDS.find((candidate) => candidate.outcome === 'challenge' && candidate.number === form.card);
    if (view.trade.type !== 'ecom' || !card) {
      // Only a challenged test card reaches this step; anything else starts again at the card form.
      return showForm(c, view, { notice: { kind: 'error', text: ctxOf(c).t('notice.notCharged') } }, 422);
    }
    if (form.action === 'lang') return page(c, <ChallengePage view={view} ctx={ctxOf(c)} card={card.number} />);
    if (form.action === 'cancel') return settle(c, view, 'canceled', cardNote(card.number, '3ds.canceled'));
    if ((form.code ?? '').trim() === CHALLENGE_CODE) return settle(c, view, 'confirmed', cardNote(card.number, '3ds.confirmed'));
    return settle(c, view, 'canceled', cardNote(card.number, '3ds.wrongCode'));
  });

  app.post('/:id/cancel', async (c) => {
    const sandbox = c.get('sandbox');
    const id = c.req.param('id');
    const view = paymentView(sandbox, id);
    if (!view) return notFound(c, id);
    if (view.final) return alreadyFinal(c, view);
    return settle(c, view, 'canceled', codedText('history.page.canceled'));
  });

  return app;
}
