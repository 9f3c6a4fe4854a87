import { createRoute } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { z } from 'zod';
import { FORM_BODY_LIMIT, formBody } from '../http/body.js';
import { formRequest } from '../http/request-body.js';
import { ResourceApp } from '../http/resource-app.js';
import { answer, error, html, TOO_LARGE } from '../openapi/error-responses.js';
import { pathParams } from '../openapi/path-params.js';
import { named } from '../openapi/schema-name.js';
import { SECURITY } from '../openapi/security.js';
import { refusalError } from '../http/refusal-error.js';
import { Refusal } from '../refusals/refusal.js';
import { errors } from '../http/errors.js';
import type { SandboxEnv } from '../http/sandbox-env.js';
import type { CardFormState } from './components/card-form.js';
import { ChallengePage, NotFoundPage, PaymentPage, ResultPage } from './components/pages.js';
import { type CodedText, codedText } from '../i18n/coded-text.js';
import { pageContext, type PageContext } from './page-context.js';
import { paymentView, stateWord, type PaymentView } from './payment-view.js';
import { payOnPage } from '../lifecycle/timeline.js';
import type { TradeRecord } from '../trades/trade.js';
import { page, securityHeaders } from './respond.js';
import { cardDigits, cardFormSchema, cardNote, CHALLENGE_CODE, checkCard, TEST_CARDS } from './test-cards.js';

/** The 3-D Secure form: the challenged card (a hidden field), the code, and which button was pressed. */
export const challengeFormSchema = z.object({
  card: z.string().max(64).optional(),
  code: z.string().max(64).optional(),
  /** "cancel": the Cancel button; "lang": the language switch (the same step in the ?lang= language). */
  action: z.enum(['cancel', 'lang']).optional(),
});

/** GET /pay/{id}/status: what the payment page's script polls. */
export const paymentStatusSchema = named(
  'PaymentStatus',
  z.object({ state: z.string(), final: z.boolean(), remaining_ms: z.number().nullable(), clock: z.enum(['real', 'manual']) }),
  "A trade's state as the payment page's script reads it.",
);

const ID = pathParams({ id: 'The trade id.' });
const NO_TRADE = html('No trade with this id: a page that says so.');
const ALREADY_FINAL = html('The trade is already in a final state; nothing changed.');
const UNREADABLE = error('The form body could not be read at all (malformed multipart or urlencoded data).');
const FORM_413 = TOO_LARGE(FORM_BODY_LIMIT, 'form body');
const REDIRECT = {
  description: "The trade moved: the payer is sent to the trade's return_url, or to its result page when it has none.",
  headers: { Location: { description: 'return_url, or /pay/{id}/result', schema: { type: 'string' as const } } },
};

const paymentPage = createRoute({
  method: 'get',
  path: '/{id}',
  operationId: 'paymentPage',
  tags: ['pages'],
  summary: 'The hosted payment page (payment_data.url)',
  description: 'P2P trades show the requisites to pay to; ecom trades a card form (test cards in the docs).',
  security: SECURITY.open,
  request: { params: ID },
  responses: { 200: html('The page.'), 404: NO_TRADE },
});

const resultPage = createRoute({
  method: 'get',
  path: '/{id}/result',
  operationId: 'paymentResult',
  tags: ['pages'],
  summary: 'The result page a payer lands on when the trade has no return_url',
  security: SECURITY.open,
  request: { params: ID },
  responses: { 200: html("The trade's state, in words."), 404: NO_TRADE },
});

const status = createRoute({
  method: 'get',
  path: '/{id}/status',
  operationId: 'paymentStatus',
  tags: ['pages'],
  summary: "The trade's state for the page's own script (it reloads when the trade becomes final)",
  security: SECURITY.open,
  request: { params: ID },
  responses: {
    200: answer('The state, whether it is final, the time left before a pending expiry (ms of the sandbox clock, or null) and the clock mode.', paymentStatusSchema),
    404: error('No trade with this id.'),
  },
});

const pay = createRoute({
  method: 'post',
  path: '/{id}/pay',
  operationId: 'payOnPage',
  tags: ['pages'],
  summary: 'Pay: "I have paid" for P2P, the card form for ecom',
  security: SECURITY.open,
  request: { params: ID, body: formRequest(cardFormSchema) },
  responses: {
    200: html('A test card that leaves the trade waiting: the page again, saying so.'),
    303: REDIRECT,
    400: UNREADABLE,
    404: NO_TRADE,
    409: ALREADY_FINAL,
    413: FORM_413,
    422: html('The card form again, with what to correct; nothing changed.'),
  },
});

const threeDSecure = createRoute({
  method: 'post',
  path: '/{id}/3ds',
  operationId: 'threeDSecureOnPage',
  tags: ['pages'],
  summary: 'The 3-D Secure step of the challenge test card: code 1111 pays, any other code or cancel declines',
  security: SECURITY.open,
  request: { params: ID, body: formRequest(challengeFormSchema) },
  responses: {
    303: REDIRECT,
    400: UNREADABLE,
    404: NO_TRADE,
    409: ALREADY_FINAL,
    413: FORM_413,
    422: html('Not the challenged card of an ecom trade: the card form again; nothing changed.'),
  },
});

const cancel = createRoute({
  method: 'post',
  path: '/{id}/cancel',
  operationId: 'cancelOnPage',
  tags: ['pages'],
  summary: 'The payer cancels',
  security: SECURITY.open,
  request: { params: ID },
  responses: { 303: REDIRECT, 404: NO_TRADE, 409: ALREADY_FINAL, 413: FORM_413 },
});

/** The hosted payment page (payment_data.url), mounted at /pay. */
export function paymentRoutes() {
  const app = new ResourceApp();
  app.use('*', securityHeaders);
  // The card form is three short fields: a larger body is refused (413) before it is read whole.
  app.use('*', formBody(FORM_BODY_LIMIT));

  const ctxOf = (c: Context<SandboxEnv>): PageContext => {
    const sandbox = c.get('sandbox');
    return pageContext(c, sandbox.options.pageLang, sandbox.basePath);
  };
  const notFound = (c: Context<SandboxEnv>, id: string) => page(c, <NotFoundPage id={id.slice(0, 100)} ctx={ctxOf(c)} />, 404);
  const showForm = (c: Context<SandboxEnv>, view: PaymentView, card: CardFormState, status: 200 | 422) => page(c, <PaymentPage view={view} ctx={ctxOf(c)} card={card} />, status);
  /** A trade that no longer waits for payment (final, or being processed in a profile's intermediate state): the page again, saying so. */
  const alreadyFinal = (c: Context<SandboxEnv>, view: PaymentView) => {
    const ctx = ctxOf(c);
    const state = stateWord(view.trade.state, ctx.t);
    return page(c, <PaymentPage view={view} ctx={ctx} message={view.final ? ctx.t('notice.alreadyFinal', { state }) : ctx.t('notice.processing', { state: view.trade.state })} />, 409);
  };

  /**
   * Moves the trade through the lifecycle (history cause "page"), then sends the payer on. `to`
   * "paid" is payOnPage(): confirmed, or under a profile with intermediate states the first of
   * them, the rest following on the sandbox clock.
   */
  const settle = async (c: Context<SandboxEnv>, view: PaymentView, to: 'paid' | 'canceled' | 'expired', note: CodedText) => {
    const sandbox = c.get('sandbox');
    const moved: TradeRecord | Refusal =
      to === 'paid' ? payOnPage(sandbox.lifecycle, sandbox.scheduler, view.trade.id, note, sandbox.clock.now()) : sandbox.lifecycle.transition(view.trade.id, to, 'page', note);
    if (moved instanceof Refusal) {
      const now = moved.kind === 'conflict' ? paymentView(sandbox, view.trade.id) : undefined;
      if (now) return alreadyFinal(c, now);
      throw refusalError(moved);
    }
    await sandbox.store.commit();
    const ctx = ctxOf(c);
    return c.redirect(view.returnUrl ?? `${ctx.base}/pay/${view.trade.id}/result${ctx.query}`, 303);
  };

  app.openapi(paymentPage, (c) => {
    const sandbox = c.get('sandbox');
    const id = c.req.param('id');
    const view = paymentView(sandbox, id);
    if (!view) return notFound(c, id);
    return page(c, <PaymentPage view={view} ctx={ctxOf(c)} />);
  });

  app.openapi(resultPage, (c) => {
    const sandbox = c.get('sandbox');
    const id = c.req.param('id');
    const view = paymentView(sandbox, id);
    if (!view) return notFound(c, id);
    return page(c, <ResultPage view={view} ctx={ctxOf(c)} />);
  });

  /** What pay.js polls to keep the deadline true and to show the result once the trade is final. */
  app.openapi(status, (c) => {
    const sandbox = c.get('sandbox');
    const view = paymentView(sandbox, c.req.param('id'));
    if (!view) throw errors.notFound(`No trade with id "${c.req.param('id').slice(0, 100)}". Open the payment_data.url returned when the trade was created.`);
    return c.json({ state: view.trade.state, final: view.final, remaining_ms: view.expiresInMs ?? null, clock: view.clockMode }, 200);
  });

  /** A form the validator could not read: the trade's page again, saying so (or its 404 / 409). */
  const unreadableForm = (result: { success: boolean }, c: Context) => {
    if (result.success) return;
    const sandbox = (c as Context<SandboxEnv>).get('sandbox');
    const id = c.req.param('id') ?? '';
    const view = paymentView(sandbox, id);
    if (!view) return notFound(c, id);
    if (!view.waiting) return alreadyFinal(c, view);
    return showForm(c, view, { notice: { kind: 'error', text: ctxOf(c).t('notice.unreadable') } }, 422);
  };

  app.openapi(
    pay,
    async (c) => {
      const sandbox = c.get('sandbox');
      const { id } = c.req.valid('param');
      const view = paymentView(sandbox, id);
      if (!view) return notFound(c, id);
      if (!view.waiting) return alreadyFinal(c, view);
      if (view.trade.type !== 'ecom') {
        return settle(c, view, 'paid', codedText('history.page.paid'));
      }
      const form = c.req.valid('form');
      const values = { ...(form.number !== undefined ? { number: form.number } : {}), ...(form.expiry !== undefined ? { expiry: form.expiry } : {}) };
      const check = checkCard(form, sandbox.clock.now());
      if (!check.ok) {
        return showForm(c, view, { values, errors: check.errors, notice: { kind: 'error', text: ctxOf(c).t('notice.notCharged') } }, 422);
      }
      const { card } = check;
      if (card.outcome === 'challenge' || card.reason === 'card.reason.challenge') return page(c, <ChallengePage view={view} ctx={ctxOf(c)} card={card.number} />);
      return settle(c, view, card.outcome === 'confirmed' ? 'paid' : card.outcome, cardNote(card.number, card.reason));
    },
    unreadableForm,
  );

  app.openapi(
    threeDSecure,
    async (c) => {
      const sandbox = c.get('sandbox');
      const { id } = c.req.valid('param');
      const view = paymentView(sandbox, id);
      if (!view) return notFound(c, id);
      if (!view.waiting) return alreadyFinal(c, view);
      const form = c.req.valid('form');
      const number = cardDigits(form.card ?? '');
      const card = TEST_CARDS.find((candidate) => candidate.outcome === 'challenge' && candidate.number === number);
      if (view.trade.type !== 'ecom' || !card) {
        // Only a challenged test card reaches this step; anything else starts again at the card form.
        return showForm(c, view, { notice: { kind: 'error', text: ctxOf(c).t('notice.notCharged') } }, 422);
      }
      if (form.action === 'lang') return page(c, <ChallengePage view={view} ctx={ctxOf(c)} card={card.number} />);
      if (form.action === 'cancel') return settle(c, view, 'canceled', cardNote(card.number, '3ds.canceled'));
      if ((form.code ?? '').trim() === CHALLENGE_CODE) return settle(c, view, 'paid', cardNote(card.number, '3ds.confirmed'));
      return settle(c, view, 'canceled', cardNote(card.number, '3ds.wrongCode'));
    },
    unreadableForm,
  );

  app.openapi(cancel, async (c) => {
    const sandbox = c.get('sandbox');
    const id = c.req.param('id');
    const view = paymentView(sandbox, id);
    if (!view) return notFound(c, id);
    if (!view.waiting) return alreadyFinal(c, view);
    return settle(c, view, 'canceled', codedText('history.page.canceled'));
  });

  return app;
}
