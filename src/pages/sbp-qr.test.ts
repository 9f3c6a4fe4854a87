import jsQRModule from 'jsqr';
import { encode } from 'uqr';
import { describe, expect, it } from 'vitest';
import { parseSbpPayload, qrSvg, sbpPayload } from './sbp-qr.js';

// jsqr is CommonJS with an ES-style default in its types: take whichever the loader hands over.
type Decode = (data: Uint8ClampedArray, width: number, height: number) => { binaryData: number[] } | null;
const jsQR: Decode = (jsQRModule as unknown as { default?: Decode }).default ?? (jsQRModule as unknown as Decode);

/** The text of a qrSvg() drawing: its unit squares painted 4 pixels wide, read back by jsQR. */
function decodeSvg(svg: string): string | undefined {
  const modules = Number(/viewBox="0 0 (\d+) /.exec(svg)?.[1]);
  const scale = 4;
  const width = modules * scale;
  const pixels = new Uint8ClampedArray(width * width * 4).fill(255);
  for (const [, x, y] of svg.matchAll(/M(\d+) (\d+)h1v1h-1z/g)) {
    for (let dy = 0; dy < scale; dy++) {
      for (let dx = 0; dx < scale; dx++) {
        const at = ((Number(y) * scale + dy) * width + Number(x) * scale + dx) * 4;
        pixels.fill(0, at, at + 3);
      }
    }
  }
  const code = jsQR(pixels, width, width);
  return code ? new TextDecoder().decode(Uint8Array.from(code.binaryData)) : undefined;
}

const TRADE = {
  id: '2f0c3a1e-1111-4222-8333-444455556666',
  amount_cents: 31250,
  amount_currency: 'RUB' as const,
  requisites: { name: 'Иван П.', bank_name: 'Сбербанк', number: '+79123456789' },
};

describe('sbpPayload', () => {
  it('writes the ST00012 pairs: recipient, bank, phone, kopecks, currency, trade id', () => {
    expect(sbpPayload(TRADE)).toBe('ST00012|Name=Иван П.|BankName=Сбербанк|Phone=+79123456789|Sum=31250|Cur=RUB|TradeId=2f0c3a1e-1111-4222-8333-444455556666');
  });

  it('never lets a value break the pairs, and reads back what it wrote', () => {
    const odd = { ...TRADE, requisites: { ...TRADE.requisites, name: 'A|B\nC' } };
    expect(parseSbpPayload(sbpPayload(odd))).toMatchObject({ Name: 'A B C', Phone: '+79123456789', Sum: '31250' });
    expect(parseSbpPayload('https://qr.nspk.ru/x')).toBeUndefined();
  });
});

describe('qrSvg', () => {
  it('draws every dark module of the uqr package and nothing else', () => {
    const svg = qrSvg(sbpPayload(TRADE));
    const { data } = encode(sbpPayload(TRADE), { ecc: 'M', border: 0 });
    const dark = data.flat().filter(Boolean).length;
    expect(svg.match(/h1v1h-1z/g)).toHaveLength(dark);
    expect(svg).toMatch(/^<svg [^>]*viewBox="0 0 (\d+) \1"/);
    expect(svg).not.toContain('Иван');
    expect(svg).not.toMatch(/<(?!\/?(svg|rect|path)\b)/);
  });

  it('decodes back to the payload, Cyrillic included (UTF-8 byte mode)', () => {
    expect(decodeSvg(qrSvg(sbpPayload(TRADE)))).toBe(sbpPayload(TRADE));
  });
});
