import { describe, expect, it } from 'vitest';
import { fromAcceptLanguage, pickLang } from './lang.js';

describe('pickLang', () => {
  it('takes ?lang= first, then Accept-Language, then the default', () => {
    expect(pickLang('en', 'ru-RU,ru;q=0.9', 'ru')).toBe('en');
    expect(pickLang('ru', 'en-US', 'en')).toBe('ru');
    expect(pickLang(undefined, 'en-US,en;q=0.9', 'ru')).toBe('en');
    expect(pickLang('de', 'de-DE,ru;q=0.5', 'en')).toBe('ru');
    expect(pickLang(undefined, 'de-DE', 'ru')).toBe('ru');
    expect(pickLang(undefined, undefined, 'en')).toBe('en');
  });

  it('reads Accept-Language by q-value, ignoring q=0 and unknown languages', () => {
    expect(fromAcceptLanguage('ru;q=0.5, en;q=0.8')).toBe('en');
    expect(fromAcceptLanguage('en;q=0, ru')).toBe('ru');
    expect(fromAcceptLanguage('fr, de')).toBeUndefined();
    expect(fromAcceptLanguage('')).toBeUndefined();
  });
});
