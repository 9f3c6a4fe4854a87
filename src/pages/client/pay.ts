import { formatCountdown } from '../format.js';

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
        button.textContent = ok ? 'Copied' : 'Copy failed';
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

  const countdown = document.querySelector<HTMLElement>('[data-testid="countdown"]');
  const remaining = Number(countdown?.dataset['remainingMs']);
  if (countdown && countdown.dataset['clock'] === 'real' && Number.isFinite(remaining)) {
    const value = countdown.querySelector('b') ?? countdown;
    const end = Date.now() + remaining;
    const tick = () => {
      const left = end - Date.now();
      value.textContent = formatCountdown(left);
      if (left <= 0) {
        clearInterval(timer);
        // The sandbox expires the trade at this moment; show what it decided.
        setTimeout(() => location.reload(), 1000);
      }
    };
    const timer = setInterval(tick, 1000);
  }
}

payClient();
