import { describe, expect, it } from 'vitest';
import { MAX_NAME, printable } from './printable.js';

describe('printable', () => {
  it('keeps ordinary names as they are', () => {
    expect(printable('amount_cents')).toBe('amount_cents');
    expect(printable('сумма 💳')).toBe('сумма 💳');
  });

  it('writes control characters out and replaces lone surrogates', () => {
    expect(printable('amount\u0000validation_failed')).toBe('amount\\u0000validation_failed');
    expect(printable('a\nb\r\u001b[31m\u2028')).toBe('a\\u000ab\\u000d\\u001b[31m\\u2028');
    expect(printable('x\ud800y\udc00')).toBe('x\ufffdy\ufffd');
  });

  it('cuts long names, never inside a surrogate pair', () => {
    const long = printable('k'.repeat(30_000));
    expect(long).toBe(`${'k'.repeat(MAX_NAME)}…`);
    const pair = printable(`${'k'.repeat(MAX_NAME - 1)}💳tail`);
    expect(pair).toBe(`${'k'.repeat(MAX_NAME - 1)}…`);
    expect(() => encodeURIComponent(pair)).not.toThrow(); // well-formed UTF-16
  });
});
