import { expect, it } from 'vitest';
import { redactor } from './redact.js';

it('masks a secret as written, JSON-escaped and URL-encoded, the longest first, and leaves values too short to mask', () => {
  const redact = redactor([
    { value: 'tok"en/1', mask: '<token>' },
    { value: 'sec-tok"en/1-ret', mask: '<secret>' },
    { value: 'ab', mask: '<x>' },
  ]);
  expect(redact('a sec-tok"en/1-ret and tok"en/1')).toBe('a <secret> and <token>');
  expect(redact(JSON.stringify({ value: 'tok"en/1' }))).toBe('{"value":"<token>"}');
  expect(redact(`?t=${encodeURIComponent('tok"en/1')}`)).toBe('?t=<token>');
  expect(redact('ab stays')).toBe('ab stays');
});
