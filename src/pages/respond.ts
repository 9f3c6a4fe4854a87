import type { Context, MiddlewareHandler } from 'hono';
import { html } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';

/**
 * Headers for every page and asset: the pages load only their own files, so a string that
 * slipped through escaping still could not run a script (escaping is the first defence).
 * No form-action rule: the payer must be able to follow the redirect to the merchant.
 */
export const securityHeaders: MiddlewareHandler = async (c, next) => {
  await next();
  // frame-ancestors: no other site may frame the pages and trick a click on "Pay" (clickjacking).
  c.header('Content-Security-Policy', "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; frame-ancestors 'none'");
  c.header('X-Frame-Options', 'DENY');
  c.header('X-Content-Type-Options', 'nosniff');
  c.header('Referrer-Policy', 'same-origin');
  c.header('Cache-Control', 'no-store');
};

type Status = 200 | 404 | 409 | 422;

/** An HTML page with its doctype. */
export function page(c: Context, node: HtmlEscapedString | Promise<HtmlEscapedString>, status: Status = 200) {
  return c.html(html`<!doctype html>${node}`, status);
}

/** A static asset (CSS or JS held in a string). */
export function asset(c: Context, body: string, type: 'text/css' | 'text/javascript') {
  return c.body(body, 200, { 'Content-Type': `${type}; charset=utf-8` });
}
