import { z } from 'zod';
import { FORM_BODY_LIMIT } from '../http/body.js';
import { challengeFormSchema } from '../pages/payment-routes.js';
import { cardFormSchema } from '../pages/test-cards.js';
import { error, GUARD_403, TOO_LARGE } from './error-responses.js';
import type { Operation, OperationResponse } from './operation.js';

/** GET /pay/{id}/status: what the payment page's script polls. */
export const paymentStatusSchema = z.object({ state: z.string(), final: z.boolean(), remaining_ms: z.number().nullable(), clock: z.enum(['real', 'manual']) });

const html = (description: string): OperationResponse => ({ description, content: { mediaType: 'text/html' } });
const NO_TRADE = html('No trade with this id: a page that says so.');
const FORM_413 = TOO_LARGE(FORM_BODY_LIMIT, 'form body');
const REDIRECT: OperationResponse = {
  description: "The trade moved: the payer is sent to the trade's return_url, or to its result page when it has none.",
  headers: { Location: 'return_url, or /pay/{id}/result' },
};

/** The pages a browser opens: the hosted payment page, its result page, the dashboard, and this document. */
export const PAGE_OPERATIONS: readonly Operation[] = [
  {
    method: 'get',
    path: '/pay/{id}',
    operationId: 'paymentPage',
    tag: 'pages',
    summary: 'The hosted payment page (payment_data.url)',
    description: 'P2P trades show the requisites to pay to; ecom trades a card form (test cards in the docs).',
    auth: 'open',
    pathParams: { id: 'The trade id.' },
    responses: { 200: html('The page.'), 404: NO_TRADE, 403: GUARD_403 },
  },
  {
    method: 'get',
    path: '/pay/{id}/result',
    operationId: 'paymentResult',
    tag: 'pages',
    summary: 'The result page a payer lands on when the trade has no return_url',
    auth: 'open',
    pathParams: { id: 'The trade id.' },
    responses: { 200: html("The trade's state, in words."), 404: NO_TRADE, 403: GUARD_403 },
  },
  {
    method: 'post',
    path: '/pay/{id}/pay',
    operationId: 'payOnPage',
    tag: 'pages',
    summary: 'Pay: "I have paid" for P2P, the card form for ecom',
    auth: 'open',
    pathParams: { id: 'The trade id.' },
    form: cardFormSchema,
    responses: {
      200: html('A test card that leaves the trade waiting: the page again, saying so.'),
      400: error('The form body could not be read at all (malformed multipart or urlencoded data).'),
      303: REDIRECT,
      404: NO_TRADE,
      409: html('The trade is already in a final state; nothing changed.'),
      413: FORM_413,
      422: html('The card form again, with what to correct; nothing changed.'),
      403: GUARD_403,
    },
  },
  {
    method: 'post',
    path: '/pay/{id}/3ds',
    operationId: 'threeDSecureOnPage',
    tag: 'pages',
    summary: 'The 3-D Secure step of the challenge test card: code 1111 pays, any other code or cancel declines',
    auth: 'open',
    pathParams: { id: 'The trade id.' },
    form: challengeFormSchema,
    responses: {
      303: REDIRECT,
      400: error('The form body could not be read at all (malformed multipart or urlencoded data).'),
      404: NO_TRADE,
      409: html('The trade is already in a final state; nothing changed.'),
      413: FORM_413,
      422: html('Not the challenged card of an ecom trade: the card form again; nothing changed.'),
      403: GUARD_403,
    },
  },
  {
    method: 'get',
    path: '/pay/{id}/status',
    operationId: 'paymentStatus',
    tag: 'pages',
    summary: "The trade's state for the page's own script (it reloads when the trade becomes final)",
    auth: 'open',
    pathParams: { id: 'The trade id.' },
    responses: {
      200: {
        description: 'The state, whether it is final, the time left before a pending expiry (ms of the sandbox clock, or null) and the clock mode.',
        schema: paymentStatusSchema,
      },
      404: error('No trade with this id.'),
      403: GUARD_403,
    },
  },
  {
    method: 'post',
    path: '/pay/{id}/cancel',
    operationId: 'cancelOnPage',
    tag: 'pages',
    summary: 'The payer cancels',
    auth: 'open',
    pathParams: { id: 'The trade id.' },
    responses: { 303: REDIRECT, 404: NO_TRADE, 409: html('The trade is already in a final state; nothing changed.'), 413: FORM_413, 403: GUARD_403 },
  },
  {
    method: 'get',
    path: '/_sandbox/',
    operationId: 'dashboard',
    tag: 'pages',
    summary: 'The dashboard: trades, their history and callbacks, forced transitions, the clock',
    description: 'GET /_sandbox redirects here (301). The page loads its data from the admin API, with the admin token the user enters when one is set.',
    auth: 'open',
    responses: { 200: html('The dashboard page.'), 403: GUARD_403 },
  },
  {
    method: 'get',
    path: '/openapi.json',
    operationId: 'openApiDocument',
    tag: 'pages',
    summary: 'This document',
    description: 'Any origin may read it (CORS *), with or without --admin-token.',
    auth: 'open',
    responses: { 200: { description: 'An OpenAPI 3.1 document.', content: { mediaType: 'application/json', description: 'OpenAPI 3.1' } }, 403: GUARD_403 },
  },
];
