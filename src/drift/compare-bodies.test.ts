import { describe, expect, it } from 'vitest';
import { compareBodies } from './compare-bodies.js';
import type { Difference } from './drift-types.js';

const row = (d: Difference) => [d.probe, d.aspect, d.path, d.sandbox, d.target];

const trade = (changes: Record<string, unknown> = {}, payment: Record<string, unknown> = {}) => ({
  id: crypto.randomUUID(),
  order: 'drift-1',
  merchant: '6f1c2a9e-3b7d-4c52-9a1e-2d4b8f0c7e51',
  state: 'created',
  amount_cents: 1,
  amount_currency: 'RUB',
  rate: 92.5,
  payment_data: { name: 'Анна С.', number: '4242424242424242', bank_name: 'ВТБ', url: 'http://127.0.0.1/pay/1', ...payment },
  ...changes,
});

describe('compareBodies', () => {
  it('finds no difference between two trades whose ids, requisites and rates differ but not their formats', () => {
    const other = trade({ rate: 90 }, { name: 'Ольга К.', number: '2200000000000004', bank_name: 'Сбербанк', url: 'https://pay.example/x' });
    expect(compareBodies('p', trade(), other, { kind: 'success' })).toEqual([]);
  });

  it('reports the topmost missing or extra path, a type, a format and a state', () => {
    const { payment_data: _payment, ...noPayment } = trade();
    expect(compareBodies('p', trade(), { ...noPayment, extra: { a: 1 } }, { kind: 'success' }).map(row)).toEqual([
      ['p', 'field_missing', 'payment_data', 'object', 'missing'],
      ['p', 'field_extra', 'extra', 'missing', 'object'],
    ]);
    expect(compareBodies('p', trade(), trade({ amount_cents: '1', state: 'new' }, { number: '4242 4242 4242 4242' }), { kind: 'success' }).map(row)).toEqual([
      ['p', 'state', 'state', 'created', 'new'],
      ['p', 'field_type', 'amount_cents', 'number', 'string'],
      ['p', 'field_format', 'payment_data.number', 'card', 'text'],
    ]);
  });

  it('reads an error body as its shape and code: every difference is an error_shape', () => {
    const error = (code: string, details: unknown[]) => ({ error: { status: 422, code, message: 'Something is wrong.', details } });
    const detail = { field: 'order', message: 'required' };
    expect(compareBodies('p', error('validation_failed', [detail]), error('validation_failed', [{ ...detail, message: 'another text' }]), { kind: 'error', codePath: 'error.code' })).toEqual([]);
    expect(compareBodies('p', error('validation_failed', [detail]), error('invalid', []), { kind: 'error', codePath: 'error.code' }).map(row)).toEqual([
      ['p', 'error_shape', 'error.code', 'validation_failed', 'invalid'],
      ['p', 'error_shape', 'error.details[]', 'object', 'missing'],
    ]);
    expect(compareBodies('p', error('x', []), { code: 'x', message: 'm' }, { kind: 'error', codePath: 'error.code' }).map(row)).toEqual([
      ['p', 'error_shape', 'error', 'object', 'missing'],
      ['p', 'error_shape', 'code', 'missing', 'string'],
      ['p', 'error_shape', 'message', 'missing', 'string'],
    ]);
  });
});
