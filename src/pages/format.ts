import { LOCALES, type Lang } from '../i18n/lang.js';

/**
 * Formatting for the payment pages and the dashboard (server and browser share this file).
 * Plain functions over Intl, no HTTP, no DOM.
 */

/** Made on first use (making one loads the locale's data, which a CLI command that shows no page never needs). */
const money: Partial<Record<Lang, Intl.NumberFormat>> = {};
const MONEY_OPTIONS: Record<Lang, Intl.NumberFormatOptions> = {
  ru: { style: 'currency', currency: 'RUB' },
  en: { style: 'currency', currency: 'RUB', currencyDisplay: 'narrowSymbol' },
};

/**
 * Kopecks in the page's language through Intl: ru 31250 → "312,50 ₽", en → "₽312.50".
 * Intl separates with no-break spaces (U+00A0), so an amount never wraps.
 */
export function formatMoney(cents: number, lang: Lang): string {
  money[lang] ??= new Intl.NumberFormat(LOCALES[lang], MONEY_OPTIONS[lang]);
  return money[lang].format(Math.trunc(cents) / 100);
}

/** 31250 → "312,50 ₽" (Russian, as the provider shows amounts). */
export function formatRubles(cents: number): string {
  return formatMoney(cents, 'ru');
}

/** Sandbox time is UTC; pages name the zone wherever they show a time. */
export const SANDBOX_TIME_ZONE = 'UTC';

/** Epoch ms → "17:45 UTC": the hour and minute with the zone's name. */
export function formatClockTime(ms: number, lang: Lang, timeZone: string = SANDBOX_TIME_ZONE): string {
  return new Intl.DateTimeFormat(LOCALES[lang], { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone, timeZoneName: 'short' }).format(ms);
}

/** ISO time → "23/11/2026, 17:39:10 UTC" (en) or "23.11.2026, 17:39:10 UTC" (ru). */
export function formatDateTime(iso: string | number, lang: Lang, timeZone: string = SANDBOX_TIME_ZONE): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return String(iso);
  return new Intl.DateTimeFormat(LOCALES[lang], {
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
    timeZone,
    timeZoneName: 'short',
  }).format(date);
}

/** "2202201234567890" → "2202 2012 3456 7890" (anything but digits is dropped first). */
export function groupCard(number: string): string {
  return number.replace(/\D/g, '').replace(/(\d{4})(?=\d)/g, '$1 ');
}

/** "+79123456789" → "+7 912 345-67-89"; anything else is returned as it is. */
export function formatPhone(phone: string): string {
  const match = /^\+7(\d{3})(\d{3})(\d{2})(\d{2})$/.exec(phone);
  return match ? `+7 ${match[1]} ${match[2]}-${match[3]}-${match[4]}` : phone;
}

/** Milliseconds left → "4:05" or "1:02:03" (hours only when there are some); never negative. */
export function formatCountdown(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  const ss = String(seconds).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${ss}` : `${minutes}:${ss}`;
}

/** The URL the payer goes back to: the trade's return_url when it is an absolute http(s) URL. */
export function safeReturnUrl(url: string | undefined): string | undefined {
  if (!url || !/^https?:\/\//i.test(url)) return undefined;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : undefined;
  } catch {
    return undefined;
  }
}
