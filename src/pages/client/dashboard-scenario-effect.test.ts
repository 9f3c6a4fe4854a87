import { describe, expect, it } from 'vitest';
import { DASHBOARD_EN } from '../../i18n/dashboard-en.js';
import { DASHBOARD_RU } from '../../i18n/dashboard-ru.js';
import { translator } from '../../i18n/translator.js';
import { scenarioEffect } from './dashboard-scenario-effect.js';
import type { ScenarioSummary } from './dashboard-types.js';

const ru = translator('ru', DASHBOARD_RU);
const dom = { lang: 'ru' as const, t: ru, word: (kind: string, value: string) => (`${kind}.${value}` in DASHBOARD_RU ? ru(`${kind}.${value}` as keyof typeof DASHBOARD_RU) : value) };

const summary = (fields: Partial<ScenarioSummary>): ScenarioSummary => ({
  name: 'x',
  description: '',
  source: 'scenarios/x.yaml',
  line: 1,
  bundled: true,
  match: '',
  magic: '',
  magic_parts: [],
  does: 'the server line',
  respond: null,
  delay_ms: null,
  answer: null,
  timeline: [],
  callbacks: null,
  ...fields,
});

describe('scenarioEffect', () => {
  it('says a timeline and callback behaviour in Russian, states in the payment pages words', () => {
    expect(scenarioEffect(dom, summary({ timeline: [{ after_ms: 5000, state: 'confirmed' }], callbacks: { fail_first: 2 } }))).toBe(
      '«оплачена» через 5 с; первые 2 попытки каждого колбэка не удаются, затем повторы его доставляют',
    );
    expect(scenarioEffect(dom, summary({ timeline: [{ after_ms: 900_000, state: 'expired' }] }))).toBe('«истекла» через 15 мин');
  });

  it('says a refused create and a trade left waiting in Russian', () => {
    expect(scenarioEffect(dom, summary({ respond: { status: 503, code: 'service_unavailable', message: 'm', retry_after_ms: 2000 } }))).toBe(
      'создание отвечает 503 service_unavailable с Retry-After 2; сделка не сохраняется',
    );
    expect(scenarioEffect(dom, summary({ answer: { lost: true, delay_ms: null } }))).toBe(
      'сделка сохраняется, затем соединение закрывается без ответа; сделка ждёт платёжную страницу или действие из панели',
    );
  });

  it('keeps the server line in English', () => {
    expect(scenarioEffect({ ...dom, lang: 'en', t: translator('en', DASHBOARD_EN) as unknown as typeof ru }, summary({ timeline: [{ after_ms: 5000, state: 'confirmed' }] }))).toBe('the server line');
  });
});
