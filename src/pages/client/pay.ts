import { isWaiting } from '../../lifecycle/transitions.js';
import { isLang } from '../../i18n/lang.js';
import { formatClockTime, formatCountdown } from '../format.js';

/**
 * The payment page's browser script: bundled by rolldown into dist/client/pay.js at build
 * time and served at /assets/pay.js. The page works without it: the forms are plain HTML
 * forms and the server validates everything.
 */
function payClient(): void {
  const digitsOf = (value: string, max: number): string => value.replace(/\D/g, '').slice(0, max);

  const cardNumber = document.querySelector<HTMLInputElement>('[data-testid="card-number"]');
  cardNumber?.addEventListener('input', () => {
    cardNumber.value = digitsOf(cardNumber.value, 19).replace(/(\d{4})(?=\d)/g, '$1 ');
  });

  const expiry = document.querySelector<HTMLInputElement>('[data-testid="card-expiry"]');
  expiry?.addEventListener('input', (event) => {
    const deleting = event instanceof InputEvent && event.inputType.startsWith('delete');
    const digits = digitsOf(expiry.value, 4);
    expiry.value = digits.length > 2 || (digits.length === 2 && !deleting) ? `${digits.slice(0, 2)}/${digits.slice(2)}` : digits;
  });

  const cvc = document.querySelector<HTMLInputElement>('[data-testid="card-cvc"]');
  cvc?.addEventListener('input', () => {
    cvc.value = digitsOf(cvc.value, 3);
  });

  document.querySelectorAll<HTMLButtonElement>('button[data-copy]').forEach((button) => {
    button.hidden = false;
    button.addEventListener('click', () => {
      const text = button.dataset['copy'] ?? '';
      const done = (ok: boolean) => {
        const label = button.textContent;
        button.textContent = (ok ? button.dataset['copied'] : button.dataset['copyFailed']) ?? label;
        setTimeout(() => (button.textContent = label), 1500);
      };
      const fallback = () => {
        const area = document.createElement('textarea');
        area.value = text;
        area.setAttribute('readonly', '');
        area.style.position = 'fixed';
        area.style.opacity = '0';
        document.body.append(area);
        area.select();
        let ok = false;
        try {
          ok = document.execCommand('copy');
        } catch {
          ok = false;
        }
        area.remove();
        done(ok);
      };
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(text).then(() => done(true), fallback);
      } else {
        fallback();
      }
    });
  });

  localDeadline();
  deadline();
  watchProcessing();
}

/**
 * "Pay before HH:MM" in the payer's own time zone: the server rendered sandbox time (UTC) into
 * the <time>'s text, its datetime and its title; this shows the same instant in the browser's
 * zone, in the page's language and with the zone's name, and leaves the title saying UTC.
 */
function localDeadline(): void {
  const time = document.querySelector<HTMLTimeElement>('time[data-testid="deadline-time"]');
  const at = Date.parse(time?.dateTime ?? '');
  if (!time || Number.isNaN(at)) return;
  const { lang } = document.documentElement;
  time.textContent = formatClockTime(at, isLang(lang) ? lang : 'en', new Intl.DateTimeFormat().resolvedOptions().timeZone);
}

/** How often the page asks the sandbox whether the trade moved or its clock was advanced. */
const STATUS_POLL_MS = 2000;

interface Status {
  state: string;
  final: boolean;
  remaining_ms: number | null;
  clock: 'real' | 'manual';
}

/**
 * The deadline box: on a real clock the time left ticks every second; on a manual clock it
 * shows sandbox time and moves only when the sandbox clock is advanced. Either way the page
 * asks the sandbox (data-status-url) every 2 s, and reloads once the trade no longer waits for
 * payment: final (expired by its step, paid or canceled elsewhere), or being processed in a
 * provider profile's intermediate state.
 */
function deadline(): void {
  const box = document.querySelector<HTMLElement>('[data-testid="countdown"]');
  const statusUrl = box?.dataset['statusUrl'];
  const remaining = Number(box?.dataset['remainingMs']);
  if (!box || !statusUrl || !Number.isFinite(remaining)) return;
  const value = box.querySelector<HTMLElement>('[data-testid="time-left"]') ?? box;
  const ticking = box.dataset['clock'] === 'real';
  let end = Date.now() + remaining;
  let left = remaining;
  const show = () => {
    value.textContent = formatCountdown(ticking ? end - Date.now() : left);
  };
  const check = async () => {
    try {
      const response = await fetch(statusUrl, { cache: 'no-store', headers: { Accept: 'application/json' } });
      if (!response.ok) return;
      const status = (await response.json()) as Status;
      if (!isWaiting(status.state)) {
        location.reload();
        return;
      }
      if (status.remaining_ms !== null) {
        left = status.remaining_ms;
        end = Date.now() + status.remaining_ms;
        show();
      }
    } catch {
      // The sandbox is away for a moment; the next poll tries again.
    }
  };
  if (ticking) setInterval(show, 1000);
  setInterval(() => void check(), STATUS_POLL_MS);
}

/**
 * A trade being processed (a provider profile's intermediate state, `data-watch-state`): the
 * page asks the sandbox (data-watch-url) every 2 s and reloads once the state changed, into the
 * next intermediate state or the result.
 */
function watchProcessing(): void {
  const panel = document.querySelector<HTMLElement>('[data-watch-url]');
  const statusUrl = panel?.dataset['watchUrl'];
  const shown = panel?.dataset['watchState'];
  if (!panel || !statusUrl || !shown) return;
  setInterval(async () => {
    try {
      const response = await fetch(statusUrl, { cache: 'no-store', headers: { Accept: 'application/json' } });
      if (response.ok && ((await response.json()) as Status).state !== shown) location.reload();
    } catch {
      // The sandbox is away for a moment; the next poll tries again.
    }
  }, STATUS_POLL_MS);
}

payClient();
