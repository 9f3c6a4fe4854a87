import { describe, expect, it } from 'vitest';
import { unbrokenRuns } from './unbroken-runs.js';

const kept = (text: string) => unbrokenRuns(text).flatMap((run) => (run.keep ? [run.text] : []));

describe('unbrokenRuns', () => {
  it('keeps a label’s short parenthesis whole, in both languages', () => {
    expect(unbrokenRuns('Срок действия (ММ/ГГ)')).toEqual([
      { text: 'Срок действия ', keep: false },
      { text: '(ММ/ГГ)', keep: true },
    ]);
    expect(kept('Expiry (MM/YY)')).toEqual(['(MM/YY)']);
  });

  it('keeps "3-D Secure", the product\'s name and card numbers whole, and a parenthesis around them as one run', () => {
    expect(kept('Проверка 3-D Secure')).toEqual(['3-D Secure']);
    expect(kept('This is a test payment page of deposit-sandbox: no real money moves.')).toEqual(['deposit-sandbox']);
    expect(kept('Test cards: 4242 4242 4242 4242 (pays), 4000 0000 0000 3220 (3-D Secure).')).toEqual(['4242 4242 4242 4242', '(pays)', '4000 0000 0000 3220', '(3-D Secure)']);
    expect(kept('Тестовая карта 4000 •••• 3220: Неверный код 3-D Secure: банк отклонил платёж.')).toEqual(['4000 •••• 3220', '3-D Secure']);
  });

  it('lets a long aside and plain words wrap, and joins back into the text', () => {
    const caption = 'In the sandbox it is for tests that read it (a QR reader shows these details).';
    expect(kept(caption)).toEqual([]);
    expect(unbrokenRuns(caption)).toEqual([{ text: caption, keep: false }]);
    const text = 'Any future expiry (MM/YY) and any 3-digit CVC, e.g. 1111 or 4000 •••• 0002 (declined)';
    expect(
      unbrokenRuns(text)
        .map((run) => run.text)
        .join(''),
    ).toBe(text);
    expect(unbrokenRuns('')).toEqual([]);
  });
});
