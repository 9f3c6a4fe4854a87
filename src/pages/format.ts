/**
 * Formatting for the payment page and result page. Plain functions, no HTTP.
 */

/** 31250 → "312,50 ₽"; 123456789 → "1 234 567,89 ₽" (spaces between thousands, comma before kopecks). */
export function formatRubles(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(Math.trunc(cents));
  const rubles = String(Math.floor(abs / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, ' ');
  const kopecks = String(abs % 100).padStart(2, '0');
  return `${sign}${rubles},${kopecks} ₽`;
}

/** "2202201234567890" → "2202 2012 3456 7890" (anything but digits is dropped first). */
export function groupCard(number: string): string {
  return number
    .replace(/\D/g, '')
    .replace(/(\d{4})(?=\d)/g, '$1 ');
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
