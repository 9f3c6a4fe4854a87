/*
 * MD5 (RFC 1321) for the dashboard's browser script. WebCrypto has no MD5 (crypto.subtle digests
 * only SHA-1 and the SHA-2 family), and a provider profile may sign requests with it (md5-colon),
 * so the New trade form hashes with this. It runs only on QA's own input in the browser; the
 * server signs and checks with node:crypto. md5.test.ts compares it with node:crypto.
 */

/** The per-round shift amounts. */
const SHIFTS = [7, 12, 17, 22, 5, 9, 14, 20, 4, 11, 16, 23, 6, 10, 15, 21] as const;

/** floor(abs(sin(i + 1)) * 2^32), the round constants. */
const K = Array.from({ length: 64 }, (_, i) => Math.floor(Math.abs(Math.sin(i + 1)) * 2 ** 32) >>> 0);

/**
 * The 16-byte MD5 digest of `bytes`.
 *
 * @example
 * md5(new TextEncoder().encode('abc')) // the bytes of 900150983cd24fb0d6963f7d28e17f72
 */
export function md5(bytes: Uint8Array): Uint8Array {
  // Padding: 0x80, zeros to 56 mod 64, then the length in bits as a 64-bit little-endian number.
  const padded = new Uint8Array((((bytes.length + 8) >>> 6) + 1) * 64);
  padded.set(bytes);
  padded[bytes.length] = 0x80;
  const view = new DataView(padded.buffer);
  const bits = bytes.length * 8;
  view.setUint32(padded.length - 8, bits >>> 0, true);
  view.setUint32(padded.length - 4, Math.floor(bits / 2 ** 32), true);

  let a0 = 0x67452301;
  let b0 = 0xefcdab89;
  let c0 = 0x98badcfe;
  let d0 = 0x10325476;
  const words = new Uint32Array(16);
  for (let block = 0; block < padded.length; block += 64) {
    for (let i = 0; i < 16; i++) words[i] = view.getUint32(block + i * 4, true);
    let a = a0;
    let b = b0;
    let c = c0;
    let d = d0;
    for (let i = 0; i < 64; i++) {
      let f: number;
      let g: number;
      if (i < 16) {
        f = (b & c) | (~b & d);
        g = i;
      } else if (i < 32) {
        f = (d & b) | (~d & c);
        g = (5 * i + 1) % 16;
      } else if (i < 48) {
        f = b ^ c ^ d;
        g = (3 * i + 5) % 16;
      } else {
        f = c ^ (b | ~d);
        g = (7 * i) % 16;
      }
      const sum = (a + f + (K[i] ?? 0) + (words[g] ?? 0)) >>> 0;
      const shift = SHIFTS[(i >>> 4) * 4 + (i % 4)] ?? 0;
      a = d;
      d = c;
      c = b;
      b = (b + ((sum << shift) | (sum >>> (32 - shift)))) >>> 0;
    }
    a0 = (a0 + a) >>> 0;
    b0 = (b0 + b) >>> 0;
    c0 = (c0 + c) >>> 0;
    d0 = (d0 + d) >>> 0;
  }
  const digest = new Uint8Array(16);
  const out = new DataView(digest.buffer);
  for (const [i, word] of [a0, b0, c0, d0].entries()) out.setUint32(i * 4, word, true);
  return digest;
}
