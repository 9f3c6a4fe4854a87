import { describe, expect, it } from 'vitest';
import { codedText } from './coded-text.js';
import { serverText } from './server-text.js';
import { SERVER_TEXTS_RU } from './server-texts-ru.js';

const ru = serverText('ru');
const en = serverText('en');

describe('serverText', () => {
  it('says a coded line in Russian with its parameters, and keeps the English line in English', () => {
    const line = codedText('history.card.3ds_wrong_code', { card: '4000 •••• 3220' });
    expect(line.text).toBe('Test card 4000 •••• 3220: Wrong 3-D Secure code: the bank declined the payment.');
    expect(en(line)).toBe(line.text);
    expect(ru(line)).toBe('Тестовая карта 4000 •••• 3220: Неверный код 3-D Secure: банк отклонил платёж.');
    expect(ru(codedText('trigger.order.prefix', { prefix: '"sbx-fail-"' }))).toBe('order начинается с "sbx-fail-"');
  });

  it('picks Russian plural forms through Intl.PluralRules and says lists with "или"', () => {
    const failed = (count: number) => ru(codedText('coverage.never_acknowledged.last', { count, answer: 'HTTP 500' }));
    expect([1, 3, 5, 21].map(failed)).toEqual([
      'не подтверждён: 1 попытка не удалась, последняя с ответом HTTP 500',
      'не подтверждён: 3 попытки не удались, последняя с ответом HTTP 500',
      'не подтверждён: 5 попыток не удались, последняя с ответом HTTP 500',
      'не подтверждён: 21 попытка не удалась, последняя с ответом HTTP 500',
    ]);
    const types = codedText('trigger.type', { types: ['any_bank', 'nspk'] });
    expect(types.text).toBe('type any_bank or nspk');
    expect(ru(types)).toBe('тип any_bank или nspk');
  });

  it('shows a line without a code, or with a code it does not know, as the server wrote it', () => {
    expect(ru({ text: 'moved by hand' })).toBe('moved by hand');
    expect(ru({ text: 'a newer cause', code: 'coverage.from_a_newer_server', params: {} })).toBe('a newer cause');
    expect(ru({ text: 'proto', code: 'toString' })).toBe('proto');
  });

  it('has no English word in any Russian text, outside the parameters and the raw names it quotes', () => {
    // Field and header names, statuses and product names are said as the API writes them.
    const RAW = /\{\w+\}|X-Signature|X-Sandbox-Scenario|Retry-After|HTTP|amount_cents|order|customer|duplicate_order|3-D Secure|\d+xx|admin API/g;
    const english = Object.entries(SERVER_TEXTS_RU).flatMap(([code, message]) =>
      (typeof message === 'string' ? [message] : Object.values(message)).flatMap((text) => (text.replace(RAW, '').match(/[A-Za-z]{2,}/g) ?? []).map((word) => `${code}: ${word}`)),
    );
    expect(english).toEqual([]);
  });
});
