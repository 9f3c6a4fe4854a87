import type { MerchantsAnswer } from '../../admin/admin-answers.js';
import { signingLabel } from '../../profile/signing-label.js';
import type { DashboardDom } from './dashboard-dom.js';
import type { ProviderError } from './dashboard-said.js';
import type { DashboardProfile, ProfileAnswer } from './dashboard-profile.js';
import { CLIENT_HEADER, DASHBOARD_CLIENT } from '../../report/dashboard-client.js';
import { basePath } from './dashboard-i18n.js';
import { signInBrowser } from './sign-in-browser.js';

/** Where a create's signature travels under a profile: X-Auth (in the token's place), or the profile's own header. */
const signatureHeader = (signing: ProfileAnswer['profile']['requests']['signature']) => (signing.header === undefined || signing.header.toLowerCase() === 'x-auth' ? 'X-Auth' : signing.header);

/** A merchant New trade can act for: one whose credentials the sandbox lists (the fixtures'). */
type Merchant = MerchantsAnswer['merchants'][number] & { token: string; secret: string };

/** "312.50", "312,50", "1 000" → 31250 kopecks; undefined when it is not a positive ruble amount with at most 2 decimals. */
export function rublesToCents(text: string): number | undefined {
  const match = /^(\d{1,12})(?:[.,](\d{1,2}))?$/.exec(text.replace(/[\s\u00a0]/g, ''));
  if (!match) return undefined;
  const cents = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  return cents > 0 ? cents : undefined;
}

/**
 * The "New trade" form. It creates through the provider API itself (POST
 * /api/v1/trades/deposit/create, or /build for ecom) with the chosen merchant's credentials:
 * its token in X-Auth, or, when the sandbox runs with --auth signature, a signature made in the
 * browser as the workspace's provider profile signs (read again before each create): in X-Auth,
 * or in the profile's own header with the token in X-Auth. Under --auth either, token or off it
 * sends the token only, which each of them accepts. The answer, or the provider's error, is shown.
 * Its requests carry X-Sandbox-Client: dashboard, so the integration report counts none of them.
 */
export function dashboardNewTrade(dom: DashboardDom, onCreated: (id: string) => void, profiles: DashboardProfile) {
  const { h, fill, byTestId, t, word, explain } = dom;
  const el = {
    form: byTestId<HTMLFormElement>('new-trade'),
    merchant: byTestId<HTMLSelectElement>('new-merchant'),
    type: byTestId<HTMLSelectElement>('new-type'),
    amount: byTestId<HTMLInputElement>('new-amount'),
    order: byTestId<HTMLInputElement>('new-order'),
    callback: byTestId<HTMLInputElement>('new-callback'),
    returnUrl: byTestId<HTMLInputElement>('new-return'),
    scenario: byTestId<HTMLSelectElement>('new-scenario'),
    submit: byTestId<HTMLButtonElement>('new-submit'),
    result: byTestId('new-result'),
    hint: byTestId('new-hint'),
  };
  let merchants: Merchant[] = [];
  let auth: MerchantsAnswer['auth'] = 'either';
  let profile: ProfileAnswer['profile'] | undefined;

  const freshOrder = () => `qa-${new Date().toISOString().replace(/\D/g, '').slice(2, 14)}-${Math.floor(Math.random() * 1000)}`;
  const endpointOf = () => (el.type.value === 'ecom' ? 'build' : 'create');
  /** What the form sends: the token, or a signature as the profile makes it (beside the token when the profile has a header of its own). */
  const credentials = () => {
    if (auth !== 'signature' || !profile) return t('new.byToken');
    const signing = profile.requests.signature;
    const header = signatureHeader(signing);
    const params = { header, algorithm: signingLabel(signing), profile: profile.name };
    return header === 'X-Auth' ? t('new.bySignature', params) : t('new.bySignatureApart', params);
  };
  const showHint = () => {
    el.hint.textContent = t('new.hint', { endpoint: `POST /api/v1/trades/deposit/${endpointOf()}`, auth: credentials() });
  };
  const error = (text: string) => fill(el.result, h('p', { class: 'error-text', role: 'alert', testid: 'new-error' }, text));

  function setMerchants(answer: MerchantsAnswer): void {
    merchants = answer.merchants.filter((m): m is Merchant => m.token !== undefined && m.secret !== undefined);
    auth = answer.auth;
    const chosen = el.merchant.value;
    fill(el.merchant, ...merchants.map((m) => h('option', { value: m.id, selected: m.id === chosen }, m.name)));
    showHint();
  }

  /** The provider profile in force (GET /_sandbox/profile), for the hint; the form reads it again before it signs. */
  function setProfile(answer: ProfileAnswer): void {
    if (profile === answer.profile) return;
    profile = answer.profile;
    showHint();
  }

  function setScenarios(names: string[]): void {
    fill(el.scenario, h('option', { value: '' }, t('new.noScenario')), ...names.map((name) => h('option', { value: name }, name)));
  }

  el.type.addEventListener('change', showHint);
  el.order.value = freshOrder();

  el.form.addEventListener('submit', (event) => {
    event.preventDefault();
    const merchant = merchants.find((m) => m.id === el.merchant.value);
    if (!merchant) return error(t('new.noMerchant'));
    const cents = rublesToCents(el.amount.value);
    if (cents === undefined) {
      el.amount.setAttribute('aria-invalid', 'true');
      return error(t('new.badAmount'));
    }
    el.amount.removeAttribute('aria-invalid');
    const body: Record<string, string | number> = { merchant: merchant.id, order: el.order.value.trim(), amount_cents: cents, amount_currency: 'RUB', type: el.type.value };
    if (el.callback.value.trim()) body['callback_url'] = el.callback.value.trim();
    if (el.returnUrl.value.trim()) body['return_url'] = el.returnUrl.value.trim();
    const endpoint = endpointOf();
    el.submit.disabled = true;
    void (async () => {
      try {
        // Marked as the dashboard's: QA's trades and mistakes are not the merchant's (integration report).
        const headers: Record<string, string> = { 'Content-Type': 'application/json', Accept: 'application/json', 'X-Auth': merchant.token, [CLIENT_HEADER]: DASHBOARD_CLIENT };
        if (auth === 'signature') {
          // The profile in force now: one set since the last poll signs this request.
          let current: ProfileAnswer;
          try {
            current = await profiles.load();
          } catch (failure) {
            return error(failure instanceof Error ? failure.message : String(failure));
          }
          setProfile(current);
          const signing = current.profile.requests.signature;
          // MD5 is computed by the script itself (md5.ts); the SHA family needs WebCrypto, found only on a secure page.
          if (signing.algorithm !== 'md5' && !globalThis.crypto?.subtle) return error(t('new.noCrypto'));
          // In the profile's own header the signature travels beside the token; else it takes the token's place.
          headers[signatureHeader(signing)] = await signInBrowser(signing, merchant.secret, endpoint, body);
        }
        if (el.scenario.value) headers['X-Sandbox-Scenario'] = el.scenario.value;
        let response: Response;
        try {
          response = await fetch(`${basePath()}/api/v1/trades/deposit/${endpoint}`, { method: 'POST', headers, body: JSON.stringify(body), cache: 'no-store' });
        } catch {
          return error(t('api.unreachable'));
        }
        const answer = (await response.json().catch(() => null)) as { id?: string; order?: string; state?: string; error?: ProviderError } | null;
        if (response.status !== 201 || !answer?.id) {
          const message = answer?.error?.message ?? '';
          const explained = explain.refusal(answer?.error);
          if (explained === undefined) return error(t('new.refused', { status: response.status, message }));
          // In Russian: what went wrong in Russian, then the provider's own text, which is what the merchant's code sees.
          return fill(
            el.result,
            h(
              'div',
              { class: 'error-text', role: 'alert', testid: 'new-error' },
              h('p', { class: 'refusal' }, t('new.refused', { status: response.status, message: explained })),
              message && h('p', { class: 'small', testid: 'new-error-provider' }, explain.providerSaid(), ' ', h('span', { lang: 'en' }, message)),
            ),
          );
        }
        fill(el.result, h('p', { class: 'ok-text', role: 'status', testid: 'new-created' }, t('new.created', { order: answer.order ?? '', state: word('state', answer.state ?? '') })));
        el.order.value = freshOrder();
        onCreated(answer.id);
      } finally {
        el.submit.disabled = false;
      }
    })();
  });

  return { setMerchants, setScenarios, setProfile };
}

export type DashboardNewTrade = ReturnType<typeof dashboardNewTrade>;
