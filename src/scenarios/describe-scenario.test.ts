import { describe, expect, it } from 'vitest';
import { effectSummary, magicPhrases, matchSummary } from './describe-scenario.js';
import { matchSchema, scenarioSchema } from './scenario.js';

const texts = (match: unknown) => magicPhrases(matchSchema.parse(match)).map((p) => p.text);
const does = (input: Record<string, unknown>) => effectSummary(scenarioSchema.parse({ name: 'x', description: 'd', ...input }));

describe('magicPhrases', () => {
  it('says what to send for each kind of condition', () => {
    expect(texts({ order: '^sbx-confirm-' })).toEqual(['order starting with "sbx-confirm-"']);
    expect(texts({ order: '^order\\.42$' })).toEqual(['order "order.42"']);
    expect(texts({ order: 'vip|gold' })).toEqual(['order matching /vip|gold/']);
    expect(texts({ amount: 1313 })).toEqual(['amount_cents 1313']);
    expect(texts({ amount: { min: 100, max: 200 } })).toEqual(['amount_cents from 100 to 200']);
    expect(texts({ amount: { min: 100 } })).toEqual(['amount_cents of at least 100']);
    expect(texts({ amount: { max: 200 } })).toEqual(['amount_cents of at most 200']);
    expect(texts({ amount: { last_digits: '13' } })).toEqual(['amount_cents ending in 13']);
    expect(texts({ customer: 'alice' })).toEqual(['customer "alice"']);
    expect(texts({ customer: { regex: '^vip-' } })).toEqual(['customer matching /^vip-/']);
    expect(texts({ type: ['any_bank', 'nspk'] })).toEqual(['type any_bank or nspk']);
    expect(texts({ merchant: '6f1c2a9e-3b7d-4c52-9a1e-2d4b8f0c7e51' })).toEqual(['merchant 6f1c2a9e-3b7d-4c52-9a1e-2d4b8f0c7e51']);
  });

  it('renders Markdown with code spans', () => {
    expect(magicPhrases(matchSchema.parse({ order: '^sbx-dup-', type: 'ecom' })).map((p) => p.markdown)).toEqual(['order starting with `sbx-dup-`', 'type `ecom`']);
  });
});

describe('matchSummary', () => {
  it('lists every condition, or says header only', () => {
    expect(matchSummary(matchSchema.parse({ type: 'ecom', order: '^x', amount: { last_digits: '7' }, customer: 'c' }))).toBe(
      'type in [ecom] and amount_cents ends in 7 and order matches /^x/ and customer = "c"',
    );
    expect(matchSummary(undefined)).toBe('X-Sandbox-Scenario header only');
  });
});

describe('effectSummary', () => {
  it('describes each step kind', () => {
    expect(does({ respond: { status: 422, message: 'm' } })).toBe('create answers 422 scenario_rejected; no trade is stored');
    expect(does({ respond: { status: 401, message: 'm' }, delay: '2s' })).toBe('create answers 401 scenario_unauthorized after 2s (real time); no trade is stored');
    expect(does({ delay: 500 })).toBe('create answers after 500ms (real time); the trade waits for the payment page or an admin action');
    expect(does({ timeline: [{ after: '15m', state: 'expired' }] })).toBe('expired after 15m');
    expect(does({ timeline: [{ after: '1s', state: 'confirmed' }], callbacks: { fail_first: 1, delay: '10s', duplicate: true, bad_signature: true } })).toBe(
      'confirmed after 1s; callbacks start 10s late; the first attempt of each callback fails, then retries deliver it; each callback event is first sent once with a wrong X-Signature; each delivered callback is sent a second time',
    );
    expect(does({})).toBe('the trade waits for the payment page or an admin action');
  });
});
