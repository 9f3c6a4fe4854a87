import { describe, expect, it } from 'vitest';
import { acknowledges } from './acknowledges.js';

describe('acknowledges', () => {
  it('2xx: any 2xx status, whatever the body', () => {
    expect(acknowledges('2xx', 200, 'whatever')).toEqual({ acknowledged: true });
    expect(acknowledges('2xx', 204, '')).toEqual({ acknowledged: true });
    expect(acknowledges('2xx', 302, '')).toMatchObject({ acknowledged: false, why: expect.stringContaining('302') });
    expect(acknowledges('2xx', null, '')).toMatchObject({ acknowledged: false, why: expect.stringContaining('no status') });
  });

  it('ok-text: a 2xx with exactly OK; a near miss says why it did not count', () => {
    expect(acknowledges('ok-text', 200, 'OK')).toEqual({ acknowledged: true });
    for (const near of ['ok', 'OK\n', ' OK', 'Ok']) {
      expect(acknowledges('ok-text', 200, near)).toMatchObject({ acknowledged: false, why: expect.stringContaining('exactly') });
    }
    expect(acknowledges('ok-text', 200, '{"status":"ok"}')).toMatchObject({ acknowledged: false, why: expect.stringContaining('only when the body is OK') });
    expect(acknowledges('ok-text', 500, 'OK').acknowledged).toBe(false);
  });

  it('code-zero: a 2xx with a JSON object whose code is the number 0', () => {
    expect(acknowledges('code-zero', 200, '{"code":0}')).toEqual({ acknowledged: true });
    expect(acknowledges('code-zero', 200, '{"message":"ok","code":0}\n')).toEqual({ acknowledged: true });
    expect(acknowledges('code-zero', 200, '{"code":"0"}')).toMatchObject({ acknowledged: false, why: expect.stringContaining('a string "0" is not the number 0') });
    expect(acknowledges('code-zero', 200, '{"code":1}').acknowledged).toBe(false);
    expect(acknowledges('code-zero', 200, '[0]').acknowledged).toBe(false);
    expect(acknowledges('code-zero', 200, 'OK')).toMatchObject({ acknowledged: false, why: expect.stringContaining('not JSON') });
    expect(acknowledges('code-zero', 404, '{"code":0}').acknowledged).toBe(false);
  });
});
