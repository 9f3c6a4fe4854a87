import { describe, expect, it } from 'vitest';
import { OptionsError, parseOptions } from '../sandbox.js';
import { sandboxOptionsSchema } from './options.js';

describe('sandbox options', () => {
  it('have the documented defaults', () => {
    expect(sandboxOptionsSchema.parse({})).toMatchObject({
      port: 4242,
      host: '127.0.0.1',
      data: '.deposit-sandbox',
      inMemory: false,
      auth: 'either',
      clock: 'real',
      pageLang: 'ru',
    });
    const defaults = sandboxOptionsSchema.parse({});
    expect(defaults.seed).toBeUndefined();
    expect(defaults.publicUrl).toBeUndefined();
    expect(defaults.fixtures).toBeUndefined();
  });

  it('--shutdown-timeout takes a duration, 10 s by default', () => {
    expect(sandboxOptionsSchema.parse({}).shutdownTimeout).toBe(10_000);
    expect(parseOptions({ shutdownTimeout: '2s' }).shutdownTimeout).toBe(2_000);
    expect(parseOptions({ shutdownTimeout: '0' }).shutdownTimeout).toBe(0);
    expect(() => parseOptions({ shutdownTimeout: 'soon' })).toThrow(/--shutdown-timeout: must be a duration such as "500ms", "10s"/);
  });

  it('coerce strings from flags and the environment', () => {
    expect(parseOptions({ port: '0' as unknown as number, seed: '42' as unknown as number })).toMatchObject({ port: 0, seed: 42 });
  });

  it('a blank value (an empty environment variable passed on) is no value: the default applies, not 0', () => {
    const parsed = parseOptions({ port: '', seed: '  ', maxWorkspaces: '' } as never);
    expect(parsed.port).toBe(4242);
    expect(parsed.seed).toBeUndefined();
    expect(parsed.maxWorkspaces).toBe(1000);
  });

  it.each([
    [{ port: 'abc' }, '--port: must be a port number from 0 to 65535'],
    [{ port: 70000 }, '--port: must be from 0 to 65535'],
    [{ port: 1.5 }, '--port: must be a whole port number'],
    [{ auth: 'nope' }, '--auth: must be one of token, signature, either, off'],
    [{ seed: 'abc' }, '--seed: must be a whole number'],
    [{ publicUrl: 'ftp://x' }, '--public-url: must be an absolute http(s) URL'],
    [{ publicUrl: 'localhost:4242' }, '--public-url: must be an absolute http(s) URL'],
    [{ clock: 'fast' }, '--clock: must be real or manual'],
    [{ pageLang: 'de' }, '--page-lang: must be one of ru, en'],
  ])('%j is refused naming the flag', (input, message) => {
    expect(() => parseOptions(input as never)).toThrow(OptionsError);
    expect(() => parseOptions(input as never)).toThrow(message);
  });
});
