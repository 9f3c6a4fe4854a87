import { encode } from 'uqr';
import type { TradeRecord } from '../trades/trade.js';

/**
 * The text an nspk payment page's QR code carries. It imitates the shape of the Russian
 * payment QR codes (GOST R 56042-2014: the `ST00012` header, meaning UTF-8, then
 * `|Key=Value` pairs) with the fields an SBP transfer by phone needs; it is not the NSPK
 * format and is not certified by NSPK, so no bank app will pay it. Values never contain `|`
 * (it is replaced by a space), so the pairs always split back.
 *
 *   ST00012|Name=<recipient>|BankName=<bank>|Phone=<+7…>|Sum=<kopecks>|Cur=RUB|TradeId=<trade id>
 */
export function sbpPayload(trade: Pick<TradeRecord, 'id' | 'amount_cents' | 'amount_currency' | 'requisites'>): string {
  const clean = (value: string | number) => String(value).replace(/[|\r\n]/g, ' ');
  const fields: [string, string | number][] = [
    ['Name', trade.requisites.name],
    ['BankName', trade.requisites.bank_name],
    ['Phone', trade.requisites.number],
    ['Sum', trade.amount_cents],
    ['Cur', trade.amount_currency],
    ['TradeId', trade.id],
  ];
  return ['ST00012', ...fields.map(([key, value]) => `${key}=${clean(value)}`)].join('|');
}

/** `ST00012|Key=Value|…` → { Key: Value } (what a test, or a merchant's QA tool, reads back). */
export function parseSbpPayload(text: string): Record<string, string> | undefined {
  const [header, ...pairs] = text.split('|');
  if (header !== 'ST00012') return undefined;
  return Object.fromEntries(pairs.map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]));
}

/**
 * A QR code (error correction M, UTF-8 byte mode, made by the `uqr` package) as an inline
 * SVG: one path of dark modules inside a 4-module quiet zone. Only numbers go into the
 * markup, so nothing in the payload can become markup.
 */
export function qrSvg(text: string): string {
  const { size: count, data } = encode(text, { ecc: 'M', border: 0 });
  const quiet = 4;
  const size = count + quiet * 2;
  let path = '';
  for (const [row, cells] of data.entries()) {
    for (const [col, dark] of cells.entries()) {
      if (dark) path += `M${col + quiet} ${row + quiet}h1v1h-1z`;
    }
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${size} ${size}" shape-rendering="crispEdges" aria-hidden="true" focusable="false"><rect width="${size}" height="${size}" fill="#fff"/><path d="${path}" fill="#000"/></svg>`;
}
