import QRCode from 'qrcode';
import { describe, expect, it } from 'vitest';
import { parseSbpPayload, qrSvg, sbpPayload } from './sbp-qr.js';

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
  it('draws every dark module of the qrcode package and nothing else', () => {
    const svg = qrSvg(sbpPayload(TRADE));
    const { modules } = QRCode.create(sbpPayload(TRADE), { errorCorrectionLevel: 'M' });
    const dark = Array.from(modules.data).filter(Boolean).length;
    expect(svg.match(/h1v1h-1z/g)).toHaveLength(dark);
    expect(svg).toMatch(/^<svg [^>]*viewBox="0 0 (\d+) \1"/);
    expect(svg).not.toContain('Иван');
    expect(svg).not.toMatch(/<(?!\/?(svg|rect|path)\b)/);
  });
});
