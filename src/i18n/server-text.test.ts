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

  it('says a line made of coded lines (a detail, what the balance probe showed, the advice) part by part, with their parameters', () => {
    const shows = codedText('credit.times', { amount: 31250, count: 3, credited: 93750 });
    const line = codedText('coverage.credit.wrong', { order: 'o-1', shows, advice: codedText('credit.advice.dedup') });
    expect(line.text).toBe(
      'acknowledged with 2xx, but the balance probe shows order o-1 credited 31250 3 times (93750): the receiver does not de-duplicate: a callback can arrive again (same X-Sandbox-Event-Id, or a replay); credit a trade at most once, by trade id and state',
    );
    expect(line.params).toEqual({ order: 'o-1', shows: 'credit.times', advice: 'credit.advice.dedup', amount: 31250, count: 3, credited: 93750 });
    expect(ru(line)).toBe(
      'подтверждён ответом 2xx, но проба баланса показывает по заказу o-1: зачислено 31250 3 раза (93750); приёмник не отсеивает повторы: колбэк может прийти снова (тот же X-Sandbox-Event-Id или повтор); зачисляйте сделку не более одного раза, по идентификатору сделки и состоянию',
    );
    const reading = codedText('coverage.credit.reading', { base: codedText('coverage.bad_signature.refused', { answer: 'HTTP 401' }) });
    expect(reading.text).toBe('the copy with a wrong X-Signature was refused (HTTP 401); reading the balance probe');
    expect(ru(reading)).toBe('копия с неверной X-Signature отклонена (HTTP 401); читаем пробу баланса');
    // An inner code this page does not know: the whole line as the server wrote it.
    expect(ru({ ...reading, params: { ...reading.params, base: 'coverage.from_a_newer_server' } })).toBe(reading.text);
  });

  it('shows a line without a code, or with a code it does not know, as the server wrote it', () => {
    expect(ru({ text: 'moved by hand' })).toBe('moved by hand');
    expect(ru({ text: 'a newer cause', code: 'coverage.from_a_newer_server', params: {} })).toBe('a newer cause');
    expect(ru({ text: 'proto', code: 'toString' })).toBe('proto');
  });

  it('has no English word in any Russian text, outside the parameters and the raw names it quotes', () => {
    // Field and header names, statuses, product names and SQL are said as the API (or the database) writes them.
    const RAW =
      /\{\w+\}|X-Signature|X-Sandbox-Scenario|X-Sandbox-Event-Id|Retry-After|HTTP|amount_cents|credited_cents|order|customer|duplicate_order|3-D Secure|\d+xx|admin API|INSERT|ON CONFLICT DO NOTHING|SELECT|FOR UPDATE/g;
    const english = Object.entries(SERVER_TEXTS_RU).flatMap(([code, message]) =>
      (typeof message === 'string' ? [message] : Object.values(message)).flatMap((text) => (text.replace(RAW, '').match(/[A-Za-z]{2,}/g) ?? []).map((word) => `${code}: ${word}`)),
    );
    expect(english).toEqual([]);
  });
});
