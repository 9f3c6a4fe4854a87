import { describe, expect, it } from 'vitest';
import { jsonType, valueFormat } from './value-format.js';

describe('valueFormat', () => {
  it.each([
    ['6f1c2a9e-3b7d-4c52-9a1e-2d4b8f0c7e51', 'id', 'uuid'],
    ['4242424242424242', 'payment_data.number', 'card'],
    ['4242424242424241', 'payment_data.number', 'digits'],
    ['4242 4242 4242 4242', 'payment_data.number', 'text'],
    ['+79991234567', 'payment_data.number', 'phone'],
    ['79991234567', 'payment_data.number', 'digits'],
    ['+7999123456', 'payment_data.number', 'text'],
    ['http://127.0.0.1:4242/pay/x', 'payment_data.url', 'url'],
    ['https://pay.example/p?id=1', 'payment_data.url', 'url'],
    ['/pay/x', 'payment_data.url', 'text'],
    ['', 'name', 'empty'],
    ['Иван П.', 'payment_data.name', 'text'],
  ])('%j at %s is %s', (value, path, format) => {
    expect(valueFormat(value, path)).toBe(format);
  });

  it('tells integers from decimals, except at a rate, which the document makes a decimal', () => {
    expect(valueFormat(1, 'amount_cents')).toBe('integer');
    expect(valueFormat(1.5, 'amount_cents')).toBe('decimal');
    expect(valueFormat(92, 'rate')).toBe('number');
    expect(valueFormat(92.5, 'rate')).toBe('number');
  });

  it('names the JSON type of everything else', () => {
    expect([null, true, [], {}].map((value) => valueFormat(value, 'x'))).toEqual(['null', 'boolean', 'array', 'object']);
    expect(jsonType('1')).toBe('string');
  });
});
