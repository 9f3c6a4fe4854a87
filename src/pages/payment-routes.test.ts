import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEMO, ecomBody, makeSandbox, p2pBody, type TestSandbox } from '../../test/support.js';
import { FORM_BODY_LIMIT } from '../http/body.js';
import type { StateChange } from '../lifecycle/lifecycle.js';
import { CLIENT_DIR } from './client-bundle.js';
import { CHALLENGE_CODE } from './test-cards.js';

/** The text inside the first element with this data-testid (markup inside is dropped). */
function testid(html: string, id: string): string | undefined {
  const match = new RegExp(`<(\\w+)[^>]*data-testid="${id}"[^>]*>([\\s\\S]*?)</\\1>`).exec(html);
  return match?.[2]?.replace(/<[^>]+>/g, '').trim();
}

let t: TestSandbox;
beforeEach(async () => {
  t = await makeSandbox({ clock: 'manual', pageLang: 'en' });
});
afterEach(() => t.close());

async function create(body: Record<string, unknown> = {}, endpoint: 'create' | 'build' = 'create'): Promise<string> {
  const res = await t.post(`/api/v1/trades/deposit/${endpoint}`, endpoint === 'create' ? p2pBody(body) : ecomBody(body));
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

const page = async (path: string) => {
  const res = await t.app.request(path);
  return { res, html: await res.text() };
};
const post = (path: string, form: Record<string, string> = {}) => t.app.request(path, { method: 'POST', body: new URLSearchParams(form) });
const stored = (id: string) => t.sandbox.store.trades.get(id);

describe('GET /pay/:id', () => {
  it('shows a P2P trade: amount, merchant, order, card requisites, pay and cancel', async () => {
    const id = await create({ order: 'order-1001' });
    const { res, html } = await page(`/pay/${id}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1"/>');
    expect(testid(html, 'amount')).toBe('₽312.50');
    expect(testid(html, 'merchant')).toBe('Demo Shop');
    expect(testid(html, 'order')).toBe('order-1001');
    const { number, bank_name, name } = stored(id)!.requisites;
    expect(testid(html, 'requisites-number')).toBe(number.replace(/(\d{4})(?=\d)/g, '$1 '));
    expect(testid(html, 'requisites-bank')).toBe(bank_name);
    expect(testid(html, 'requisites-name')).toBe(name);
    expect(testid(html, 'pay')).toBe('I have paid');
    expect(testid(html, 'cancel')).toBe('Cancel');
    expect(html).not.toContain('data-testid="card-number"');
  });

  it('shows the phone number of an nspk trade', async () => {
    const id = await create({ type: 'nspk' });
    const { html } = await page(`/pay/${id}`);
    expect(testid(html, 'requisites-number')).toMatch(/^\+7 9\d{2} \d{3}-\d{2}-\d{2}$/);
    expect(html).toContain('Pay by phone number (SBP)');
  });

  it('shows a card form for an ecom trade, with the test cards', async () => {
    const id = await create({}, 'build');
    const { html } = await page(`/pay/${id}`);
    for (const field of ['card-number', 'card-expiry', 'card-cvc', 'pay', 'cancel', 'amount']) expect(html).toContain(`data-testid="${field}"`);
    expect(testid(html, 'pay')).toBe('Pay ₽312.50');
    expect(testid(html, 'test-cards')).toContain('4000 0000 0000 0002');
    expect(html).not.toContain('data-testid="requisites-number"');
  });

  it('escapes merchant-supplied text and never shows secrets', async () => {
    const id = await create({ order: '<script>window.__xss=1</script>', customer: '<img src=x onerror="window.__xss=1">' });
    const { res, html } = await page(`/pay/${id}`);
    expect(html).not.toContain('<script>window');
    expect(html).toContain('&lt;script&gt;window.__xss=1&lt;/script&gt;');
    expect(html).not.toContain(DEMO.secret);
    expect(html).not.toContain(DEMO.token);
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    const result = await page(`/pay/${id}/result`);
    expect(result.html).not.toContain('<script>window');
    expect(result.html).toContain('&lt;script&gt;');
  });

  it('answers an unknown or malformed trade id with an HTML 404 page', async () => {
    for (const id of ['3f1c2a9e-3b7d-4c52-9a1e-2d4b8f0c7e59', 'not-a-uuid']) {
      const { res, html } = await page(`/pay/${id}`);
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(html).toContain('Trade not found');
    }
    const { res, html } = await page(`/pay/${encodeURIComponent('<img src=x>')}`);
    expect(res.status).toBe(404);
    expect(html).toContain('&lt;img src=x&gt;');
    expect((await post('/pay/3f1c2a9e-3b7d-4c52-9a1e-2d4b8f0c7e59/pay')).status).toBe(404);
    expect((await post('/pay/3f1c2a9e-3b7d-4c52-9a1e-2d4b8f0c7e59/cancel')).status).toBe(404);
  });

  it('counts down to a scheduled expiry on the sandbox clock', async () => {
    const id = await create();
    t.sandbox.scheduler.schedule('transition', t.sandbox.clock.now() + 15 * 60_000, { state: 'expired' }, id);
    const { html } = await page(`/pay/${id}`);
    expect(html).toContain('data-remaining-ms="900000"');
    expect(html).toContain('data-clock="manual"');
    expect(testid(html, 'countdown')).toContain('15:00');
    await t.sandbox.scheduler.advance(60_000);
    expect(testid((await page(`/pay/${id}`)).html, 'countdown')).toContain('14:00');
  });

  it('shows no countdown without a pending expiry', async () => {
    const id = await create();
    t.sandbox.scheduler.schedule('transition', t.sandbox.clock.now() + 5_000, { state: 'confirmed' }, id);
    expect((await page(`/pay/${id}`)).html).not.toContain('data-testid="countdown"');
  });

  it('serves its stylesheet and script from the sandbox itself', async () => {
    const css = await t.app.request('/assets/pay.css');
    expect(css.status).toBe(200);
    expect(css.headers.get('content-type')).toMatch(/^text\/css/);
    const js = await t.app.request('/assets/pay.js');
    expect(js.headers.get('content-type')).toMatch(/^text\/javascript/);
    const source = await js.text();
    expect(() => new Function(source)).not.toThrow();
    // The very file the build wrote and the package ships.
    expect(source).toBe(readFileSync(`${CLIENT_DIR}pay.js`, 'utf8'));
    const { html } = await page(`/pay/${await create()}`);
    expect(html).not.toMatch(/https?:\/\/(?!127\.0\.0\.1)/);
  });
});

describe('POST /pay/:id/pay and /cancel (P2P)', () => {
  it('"I have paid" confirms the trade through the lifecycle and redirects to return_url', async () => {
    const changes: StateChange[] = [];
    t.sandbox.lifecycle.onChange((change) => changes.push(change));
    const id = await create({ return_url: 'https://shop.example/thanks?order=1' });
    const res = await post(`/pay/${id}/pay`);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('https://shop.example/thanks?order=1');
    expect(stored(id)?.state).toBe('confirmed');
    expect(stored(id)?.history.at(-1)).toMatchObject({ from: 'created', to: 'confirmed', cause: 'page' });
    expect(changes).toMatchObject([{ from: 'created', to: 'confirmed', cause: 'page' }]);
  });

  it('without a return_url, redirects to the result page', async () => {
    const id = await create();
    const res = await post(`/pay/${id}/pay`);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`/pay/${id}/result`);
    const { res: result, html } = await page(`/pay/${id}/result`);
    expect(result.status).toBe(200);
    expect(testid(html, 'state')).toBe('confirmed');
    expect(testid(html, 'result-title')).toBe('Payment received');
    expect(testid(html, 'amount')).toBe('₽312.50');
  });

  it('cancel moves the trade to canceled', async () => {
    const id = await create({ return_url: 'http://127.0.0.1:9/back' });
    const res = await post(`/pay/${id}/cancel`);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('http://127.0.0.1:9/back');
    expect(stored(id)?.state).toBe('canceled');
    expect(stored(id)?.history.at(-1)).toMatchObject({ note: 'The payer canceled the payment on the payment page.', note_code: 'history.page.canceled', note_params: {} });
  });

  it('redirects to the result page when the stored return_url is not http(s)', async () => {
    const id = await create();
    t.sandbox.store.trades.put({ ...stored(id)!, return_url: 'javascript:alert(1)' });
    const res = await post(`/pay/${id}/pay`);
    expect(res.headers.get('location')).toBe(`/pay/${id}/result`);
    expect((await page(`/pay/${id}`)).html).not.toContain('javascript:');
  });

  it('a final trade shows its state and a link back instead of the form, and posting changes nothing', async () => {
    const id = await create({ return_url: 'https://shop.example/back' });
    t.sandbox.lifecycle.transition(id, 'expired', 'scenario');
    const { res, html } = await page(`/pay/${id}`);
    expect(res.status).toBe(200);
    expect(testid(html, 'state')).toBe('expired');
    expect(html).toContain('href="https://shop.example/back"');
    expect(testid(html, 'back')).toBe('Return to Demo Shop');
    expect(html).not.toContain('data-testid="pay"');
    for (const action of ['pay', 'cancel']) {
      const again = await post(`/pay/${id}/${action}`);
      expect(again.status).toBe(409);
      expect(testid(await again.text(), 'notice')).toBe('This trade is already expired; nothing was changed.');
    }
    expect(stored(id)?.state).toBe('expired');
    expect(stored(id)?.history).toHaveLength(2);
  });

  it('the result page of a trade still waiting links to the payment page', async () => {
    const id = await create();
    const { html } = await page(`/pay/${id}/result`);
    expect(testid(html, 'result-title')).toBe('Waiting for payment');
    expect(html).toContain(`href="/pay/${id}"`);
  });
});

describe('form bodies: at most FORM_BODY_LIMIT bytes (src/http/body.ts)', () => {
  const FORM = 'application/x-www-form-urlencoded';
  /** What each form route would do with its form: confirm the trade (or cancel it). */
  const forms = { pay: 'number=4242424242424242&expiry=12%2F39&cvc=123', '3ds': `card=4000000000003220&code=${CHALLENGE_CODE}`, cancel: '' } as const;
  /** The form padded with a field no route reads, to exactly `size` bytes. */
  const padded = (form: string, size: number) => {
    const head = `${form}&pad=`;
    return head + 'x'.repeat(size - head.length);
  };
  /** Sent with its Content-Length, or as a stream in 1 KiB chunks without one (chunked on the wire). */
  const send = (path: string, body: string, how: 'declared' | 'streamed') => {
    if (how === 'declared') return t.app.request(path, { method: 'POST', headers: { 'Content-Type': FORM, 'Content-Length': String(body.length) }, body });
    const bytes = new TextEncoder().encode(body);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let at = 0; at < bytes.length; at += 1024) controller.enqueue(bytes.subarray(at, at + 1024));
        controller.close();
      },
    });
    return t.app.request(path, { method: 'POST', headers: { 'Content-Type': FORM }, body: stream, duplex: 'half' } as RequestInit);
  };

  it.each([
    ['pay', 'declared'],
    ['pay', 'streamed'],
    ['3ds', 'declared'],
    ['3ds', 'streamed'],
    ['cancel', 'declared'],
    ['cancel', 'streamed'],
  ] as const)('POST /pay/:id/%s, one byte over the limit (%s): 413 body_too_large, the connection closes, the trade is unchanged', async (action, how) => {
    const id = await create({}, 'build');
    const before = structuredClone(stored(id));
    const res = await send(`/pay/${id}/${action}`, padded(forms[action], FORM_BODY_LIMIT + 1), how);
    expect(res.status).toBe(413);
    expect(res.headers.get('connection')).toBe('close');
    expect(await res.json()).toEqual({
      error: { status: 413, code: 'body_too_large', message: `The request body is larger than ${FORM_BODY_LIMIT} bytes. Send a smaller JSON body.`, details: [] },
    });
    expect(stored(id)).toEqual(before);
    expect((await page(`/pay/${id}`)).res.status).toBe(200);
  });

  it.each(['declared', 'streamed'] as const)('a form of exactly the limit (%s) is read: the test card confirms the trade', async (how) => {
    const id = await create({}, 'build');
    const res = await send(`/pay/${id}/pay`, padded(forms.pay, FORM_BODY_LIMIT), how);
    expect(res.status).toBe(303);
    expect(stored(id)?.state).toBe('confirmed');
  });
});
