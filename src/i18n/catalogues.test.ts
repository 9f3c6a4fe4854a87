import { describe, expect, it } from 'vitest';
import { DASHBOARD_EN } from './dashboard-en.js';
import { DASHBOARD_RU } from './dashboard-ru.js';
import { DASHBOARD_SAID_RU } from './dashboard-said-ru.js';
import { LOCALES, type Lang } from './lang.js';
import { PAY_EN } from './pay-en.js';
import { PAY_RU } from './pay-ru.js';
import { SERVER_TEXTS_EN } from './server-texts-en.js';
import { SERVER_TEXTS_RU } from './server-texts-ru.js';
import { translator, type Catalogue } from './translator.js';

const PAIRS: [string, Record<Lang, Catalogue>][] = [
  ['payment pages', { en: PAY_EN, ru: PAY_RU }],
  ['dashboard', { en: DASHBOARD_EN, ru: DASHBOARD_RU }],
  // Every code the server sends beside an English line (a history note, a report detail, a trigger) has its Russian text.
  ['server texts', { en: SERVER_TEXTS_EN, ru: SERVER_TEXTS_RU }],
];

/** The codes whose Russian text leaves out a parameter the English line names (the error text of an attempt with no HTTP answer). */
const RU_LEAVES_OUT: Record<string, string[]> = {
  'coverage.duplicate.wrong_no_answer': ['{answer}'],
  'coverage.delivery.wrong_no_answer': ['{answer}'],
  'coverage.overlapping.wrong_no_answer': ['{answer}'],
  'coverage.never_acknowledged.last_no_answer': ['{answer}'],
};

describe.each(PAIRS)('the %s catalogues', (_name, catalogues) => {
  it('have the same keys in ru and en (a key missing in either fails here)', () => {
    const en = Object.keys(catalogues.en).sort();
    const ru = Object.keys(catalogues.ru).sort();
    expect(
      en.filter((key) => !ru.includes(key)),
      'keys missing in ru',
    ).toEqual([]);
    expect(
      ru.filter((key) => !en.includes(key)),
      'keys missing in en',
    ).toEqual([]);
  });

  it.each(['ru', 'en'] as const)('%s: no empty text; plural messages have every category Intl.PluralRules uses', (lang) => {
    const categories = new Intl.PluralRules(LOCALES[lang]).resolvedOptions().pluralCategories;
    for (const [key, message] of Object.entries(catalogues[lang])) {
      if (typeof message === 'string') {
        expect(message.trim(), key).not.toBe('');
      } else {
        for (const category of categories) expect(message[category], `${key}.${category}`).toBeTruthy();
      }
    }
  });

  it('use the same {placeholders} in both languages', () => {
    const names = (message: unknown) => [...new Set(JSON.stringify(message).match(/\{\w+\}/g) ?? [])].sort();
    for (const key of Object.keys(catalogues.en)) {
      const english = names(catalogues.en[key]).filter((name) => !RU_LEAVES_OUT[key]?.includes(name));
      expect(names(catalogues.ru[key]), key).toEqual(english);
    }
  });
});

describe("the Russian dashboard's words for the server's English (no English catalogue: that page shows the server's words)", () => {
  it('has no empty text, and every plural category Intl.PluralRules uses', () => {
    const categories = new Intl.PluralRules(LOCALES.ru).resolvedOptions().pluralCategories;
    for (const [key, message] of Object.entries(DASHBOARD_SAID_RU as Catalogue)) {
      if (typeof message === 'string') expect(message.trim(), key).not.toBe('');
      else for (const category of categories) expect(message[category], `${key}.${category}`).toBeTruthy();
    }
  });
});

describe('translator', () => {
  it('fills placeholders and picks plural forms through Intl.PluralRules', () => {
    const ru = translator('ru', DASHBOARD_RU);
    const en = translator('en', DASHBOARD_EN);
    expect([1, 2, 5, 21, 1000].map((count) => ru('trades.count', { count }))).toEqual(['1 сделка', '2 сделки', '5 сделок', '21 сделка', '1\u00a0000 сделок']);
    expect([1, 2, 1000].map((count) => en('trades.count', { count }))).toEqual(['1 trade', '2 trades', '1,000 trades']);
    expect(translator('en', PAY_EN)('title.pay', { merchant: 'Demo Shop' })).toBe('Pay Demo Shop');
  });
});
