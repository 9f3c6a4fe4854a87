import { describe, expect, it } from 'vitest';
import type { CheckCaseResult } from '../../check-callback/check-report.js';
import { dashboardSaid } from './dashboard-said.js';

const checkCase = (fields: Partial<CheckCaseResult>): CheckCaseResult => ({
  case: 'valid',
  title: 'a valid callback',
  expected: '2xx',
  sent: { trade: 't', state: 'confirmed', event_id: 'e', signature: 'valid' },
  status: 200,
  duration_ms: 3,
  response: 'ok',
  verdict: 'ok',
  message: 'Accepted a correctly signed callback (200).',
  ...fields,
});

describe('dashboardSaid', () => {
  const ru = dashboardSaid('ru');
  const en = dashboardSaid('en');

  it("shows the server's English as it is on the English page", () => {
    const c = checkCase({});
    expect(en.caseTitle(c)).toBe('a valid callback');
    expect(en.advice(c)).toBe('Accepted a correctly signed callback (200).');
    expect(en.refusal({ code: 'duplicate_order', message: 'Order x already exists.' })).toBeUndefined();
  });

  it("says the receiver check's advice in Russian from the case, the verdict and the answer", () => {
    expect(ru.caseTitle(checkCase({ case: 'older_state' }))).toBe('более старое состояние после нового');
    expect(ru.advice(checkCase({}))).toBe('Верно подписанный колбэк принят (200).');
    expect(ru.advice(checkCase({ verdict: 'flagged', status: 401 }))).toMatch(/^Верно подписанный колбэк отклонён \(ответ 401\)\. Проверяйте подпись/);
    expect(ru.advice(checkCase({ verdict: 'flagged', status: null }))).toMatch(/^Верно подписанный колбэк не принят \(нет ответа\)\. Отвечайте 2xx, когда/);
    expect(ru.advice(checkCase({ case: 'duplicate', verdict: 'flagged', status: 500, expected: '2xx with the body OK' }))).toContain('на повтор отвечайте 2xx with the body OK');
    expect(ru.advice(checkCase({ case: 'older_state', verdict: 'flagged', status: 409, expected: '2xx, and ignored' }))).toMatch(
      /^«Ожидает оплаты» после «оплачена» не принят \(ответ 409\)\. Отвечайте 2xx и игнорируйте/,
    );
    expect(ru.advice(checkCase({ case: 'bad_signature', verdict: 'flagged', status: 200 }))).toMatch(/^Принят колбэк с неверной подписью \(200\)/);
    expect(ru.advice(checkCase({ case: 'no_signature', verdict: 'ok', status: 401 }))).toBe('Колбэк без подписи отклонён (401).');
    expect(ru.advice(checkCase({ case: 'no_signature', verdict: 'warning', status: 200 }))).toMatch(/^Колбэк без подписи отклонён ответом 200 с телом/);
    expect(ru.advice(checkCase({ case: 'bad_signature', verdict: 'warning', status: 500 }))).toBe('Колбэк с неверной подписью отклонён, но ответом 500. Отвечайте 401 или 403.');
    expect(ru.advice(checkCase({ case: 'bad_signature', verdict: 'warning', status: null }))).toMatch(/^На колбэк с неверной подписью нет ответа\./);
    expect(ru.advice(checkCase({ case: 'duplicate', verdict: 'skipped', status: null }))).toBe('Не отправлен: приёмник не ответил на первый колбэк.');
  });

  it('explains a refused create in Russian from its code and fields; an unknown code is named', () => {
    expect(ru.refusal({ code: 'validation_failed', details: [{ field: 'amount_cents' }] })).toBe('Провайдер не принял поле amount_cents: проверьте значение и формат.');
    expect(ru.refusal({ code: 'validation_failed', details: [{ field: 'amount_cents' }, { field: 'order' }, { field: 'order' }] })).toBe(
      'Провайдер не принял поля amount_cents, order: проверьте значения и формат.',
    );
    expect(ru.refusal({ code: 'invalid_token' })).toBe('Провайдер не принял токен магазина.');
    expect(ru.refusal({ code: 'bank_unavailable' })).toBe('Провайдер отказал с кодом bank_unavailable.');
    expect(ru.refusal(undefined)).toBe('Провайдер отказал с кодом —.');
  });
});
