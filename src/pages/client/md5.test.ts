import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { md5 } from './md5.js';

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

describe('md5, which the dashboard script signs with under a profile that uses MD5', () => {
  it('gives the test suite of RFC 1321, appendix A.5', () => {
    const suite: Array<[string, string]> = [
      ['', 'd41d8cd98f00b204e9800998ecf8427e'],
      ['a', '0cc175b9c0f1b6a831c399e269772661'],
      ['abc', '900150983cd24fb0d6963f7d28e17f72'],
      ['message digest', 'f96b697d7cb7938d525a2f31aaf161d0'],
      ['abcdefghijklmnopqrstuvwxyz', 'c3fcd3d76192e4007dfb496cca67e13b'],
      ['ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789', 'd174ab98d277d9f5a5611c2c9f419d9f'],
      ['12345678901234567890123456789012345678901234567890123456789012345678901234567890', '57edf4a22be3c955ac49da2e2107b67a'],
    ];
    for (const [text, digest] of suite) expect(hex(md5(new TextEncoder().encode(text))), text).toBe(digest);
  });

  it('agrees with node:crypto at every padding boundary and on random bytes', () => {
    for (let length = 0; length <= 130; length++) {
      const bytes = Uint8Array.from({ length }, (_, i) => (i * 31 + length) & 0xff);
      expect(hex(md5(bytes)), `${length} bytes`).toBe(createHash('md5').update(bytes).digest('hex'));
    }
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2000 }), (bytes) => hex(md5(bytes)) === createHash('md5').update(bytes).digest('hex')),
      { numRuns: 300 },
    );
  });
});
