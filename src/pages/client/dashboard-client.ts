import { ADVANCE_LIMIT_MS, parseDuration } from '../../clock/duration.js';
import { formatRussianDuration } from '../../clock/russian-units.js';
import { formatDateTime } from '../format.js';
import type { DashboardApi } from './dashboard-api.js';
import type { DashboardDetail } from './dashboard-detail.js';
import type { DashboardDom } from './dashboard-dom.js';
import type { DashboardNewTrade } from './dashboard-new-trade.js';
import type { DashboardProfile } from './dashboard-profile.js';
import { scenarioEffect } from './dashboard-scenario-effect.js';
import type { ScenarioSummary, ScenariosAnswer, TradeDetailAnswer } from './dashboard-types.js';

/**
 * The dashboard: trades, one trade's detail, the clock, the provider profile, reset, scenarios,
 * the merchants for names and the New trade form. Polls the admin API every 1.5 s and redraws
 * only what changed.
 */
export function dashboardClient(
  dom: DashboardDom,
  api: DashboardApi,
  detail: DashboardDetail,
  newTrade: DashboardNewTrade,
  names: Map<string, string>,
  profile: DashboardProfile,
): { select(id: string): void } {
  const { h, fill, byTestId, badge, time, rubles, t, word, said, lang } = dom;
  const POLL_MS = 1500;

  const el = {
    login: byTestId('login'),
    loginForm: byTestId<HTMLFormElement>('login-form'),
    tokenInput: byTestId<HTMLInputElement>('token-input'),
    loginError: byTestId('login-error'),
    app: byTestId('app'),
    message: byTestId('message'),
    clockMode: byTestId('clock-mode'),
    clockNow: byTestId('clock-now'),
    clockPending: byTestId('clock-pending'),
    clockNext: byTestId('clock-next'),
    advanceForm: byTestId<HTMLFormElement>('advance-form'),
    advanceInput: byTestId<HTMLInputElement>('advance-input'),
    reset: byTestId<HTMLButtonElement>('reset'),
    sessionDownload: byTestId<HTMLButtonElement>('session-download'),
    signout: byTestId<HTMLButtonElement>('signout'),
    filters: byTestId<HTMLFormElement>('filters'),
    filterMerchant: byTestId<HTMLSelectElement>('filter-merchant'),
    filterState: byTestId<HTMLSelectElement>('filter-state'),
    filterOrder: byTestId<HTMLInputElement>('filter-order'),
    trades: byTestId('trades'),
    total: byTestId('trades-total'),
    detail: byTestId('detail'),
    scenarios: byTestId('scenarios'),
  };

  const shown = { trades: '', detail: '', clock: '' };
  let selected = fromHash();
  let locked = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let messageTimer: ReturnType<typeof setTimeout> | undefined;

  function fromHash(): string | null {
    const match = /^#trade=([0-9a-fA-F-]{36})$/.exec(location.hash);
    return match?.[1] ?? null;
  }

  function say(text: string, kind: 'ok' | 'error' = 'ok'): void {
    el.message.textContent = text;
    el.message.className = `message ${kind}`;
    el.message.hidden = false;
    clearTimeout(messageTimer);
    if (kind === 'ok') messageTimer = setTimeout(() => (el.message.hidden = true), 6000);
  }

  function showLogin(reason: string): void {
    locked = true;
    el.login.hidden = false;
    el.app.hidden = true;
    el.loginError.textContent = reason;
    el.tokenInput.value = '';
    el.tokenInput.focus();
  }

  /** Runs an API call; a 401 shows the token prompt, anything else the message bar. */
  async function attempt(task: () => Promise<void>): Promise<void> {
    try {
      await task();
    } catch (error) {
      if (error instanceof api.ApiError && error.status === 401) {
        // Another call refused the same token first (a poll beside the sign-in): its prompt says why.
        if (locked) return;
        // A call sent with a token replaced since (a poll under way while the right one was entered):
        // its refusal is not the current token's, which stays.
        if (error.sentToken !== api.token.get()) return;
        const had = api.token.get();
        api.token.clear();
        showLogin(had ? t('login.refused') : t('login.needed'));
        return;
      }
      say(error instanceof Error ? error.message : String(error), 'error');
    }
  }

  function merchantName(id: string): string {
    return names.get(id.toLowerCase()) ?? id.slice(0, 8);
  }

  /** The merchants once per sign-in: names for the table and the filter, credentials for New trade. */
  async function loadMerchants(): Promise<void> {
    const answer = await api.call('GET', '/merchants');
    names.clear();
    for (const m of answer.merchants) names.set(m.id.toLowerCase(), m.name);
    const chosen = el.filterMerchant.value;
    fill(el.filterMerchant, h('option', { value: '' }, t('trades.anyMerchant')), ...answer.merchants.map((m) => h('option', { value: m.id, selected: m.id === chosen }, m.name)));
    newTrade.setMerchants(answer);
    shown.trades = shown.detail = '';
  }

  async function loadClock(): Promise<void> {
    const clock = await api.call('GET', '/clock');
    const key = JSON.stringify(clock);
    if (key === shown.clock) return;
    shown.clock = key;
    el.clockMode.textContent = t(`clock.mode.${clock.mode}`);
    el.clockMode.dataset['mode'] = clock.mode;
    fill(el.clockNow, time(clock.now));
    el.clockPending.textContent = String(clock.pending);
    fill(el.clockNext, time(clock.next_due));
  }

  /** The provider profile in force: named in the header, and the New trade form's hint. */
  async function loadProfile(): Promise<void> {
    newTrade.setProfile(await profile.load());
  }

  async function loadTrades(): Promise<void> {
    const query = { limit: '100', merchant: el.filterMerchant.value || undefined, state: el.filterState.value || undefined, order: el.filterOrder.value || undefined };
    const answer = await api.call('GET', '/trades', { query });
    const key = JSON.stringify([answer, selected]);
    if (key === shown.trades) return;
    shown.trades = key;
    el.total.textContent = answer.total === answer.trades.length ? t('trades.count', { count: answer.total }) : t('trades.someOf', { count: answer.total, shown: answer.trades.length });
    if (answer.trades.length === 0) {
      fill(el.trades, h('tr', {}, h('td', { colspan: 6, class: 'muted empty' }, t('trades.empty'))));
      return;
    }
    fill(
      el.trades,
      ...answer.trades.map((trade) =>
        h(
          'tr',
          { testid: 'trade-row', 'data-id': trade.id, class: trade.id === selected ? 'selected' : undefined, onclick: () => select(trade.id) },
          h('td', { class: 'wide-only nowrap' }, time(trade.created_at)),
          h('td', { class: 'order' }, h('a', { href: `#trade=${trade.id}`, testid: 'trade-order' }, trade.order)),
          h('td', { class: 'wide-only nowrap', title: trade.merchant, testid: 'trade-merchant' }, merchantName(trade.merchant)),
          h('td', { class: 'wide-only nowrap', testid: 'trade-type', 'data-type': trade.type }, word('type', trade.type)),
          h('td', { class: 'num' }, rubles(trade.amount_cents)),
          h('td', {}, badge(trade.state, 'trade-state')),
        ),
      ),
    );
  }

  async function loadDetail(): Promise<void> {
    const id = selected;
    if (!id) {
      if (shown.detail !== 'none') fill(el.detail, h('p', { class: 'muted' }, t('detail.select')));
      shown.detail = 'none';
      return;
    }
    let answer: TradeDetailAnswer;
    try {
      answer = await api.call('GET', '/trades/:id', { param: { id } });
    } catch (error) {
      if (error instanceof api.ApiError && error.status === 404) {
        say(t('detail.gone', { id }), 'error');
        select(null);
        return;
      }
      throw error;
    }
    if (id !== selected) return;
    const key = JSON.stringify(answer);
    if (key === shown.detail) return;
    shown.detail = key;
    fill(el.detail, detail.render(answer, { transition: (state) => void attempt(() => move(id, state)), replay: (event) => void attempt(() => replay(event)) }));
  }

  async function loadScenarios(): Promise<void> {
    let answer: ScenariosAnswer;
    try {
      answer = await api.call('GET', '/scenarios');
    } catch (error) {
      if (error instanceof api.ApiError && error.status === 404) {
        fill(el.scenarios, h('p', { class: 'muted' }, t('scenarios.unlisted')));
        return;
      }
      throw error;
    }
    newTrade.setScenarios(answer.scenarios.map((s) => s.name));
    // The trigger's parts in the page's language ("order начинается с "sbx-fail-""); the server's English line when a part's code is unknown.
    const trigger = (s: ScenarioSummary) => {
      const parts = s.magic_parts.map((part) => said({ text: '', ...part }));
      return parts.length === 0 || parts.includes('') ? s.magic : parts.join(said({ text: ' and ', code: 'trigger.and' }));
    };
    const rows = answer.scenarios.map((s) =>
      h(
        'tr',
        { testid: 'scenario-row', 'data-name': s.name },
        h('td', {}, h('div', { class: 'mono' }, s.name), h('div', { class: 'small muted', testid: 'scenario-description' }, (lang === 'ru' ? s.description_ru : undefined) ?? s.description)),
        h('td', { testid: 'scenario-trigger' }, trigger(s)),
        h('td', { testid: 'scenario-does' }, scenarioEffect(dom, s)),
        h('td', { class: 'muted nowrap', testid: 'scenario-file' }, s.source),
      ),
    );
    fill(
      el.scenarios,
      rows.length === 0
        ? h('p', { class: 'muted' }, t('scenarios.none'))
        : h(
            'div',
            { class: 'scroll', tabindex: 0 },
            h(
              'table',
              {},
              h(
                'thead',
                {},
                h('tr', {}, h('th', { scope: 'col' }, t('col.name')), h('th', { scope: 'col' }, t('col.trigger')), h('th', { scope: 'col' }, t('col.does')), h('th', { scope: 'col' }, t('col.file'))),
              ),
              h('tbody', {}, ...rows),
            ),
          ),
    );
  }

  async function refresh(): Promise<void> {
    if (locked) return;
    await Promise.all([loadClock(), loadTrades(), loadDetail(), loadProfile()]);
  }

  function poll(): void {
    clearTimeout(timer);
    timer = setTimeout(async () => {
      if (!document.hidden) await attempt(refresh);
      poll();
    }, POLL_MS);
  }

  function select(id: string | null): void {
    selected = id;
    shown.detail = '';
    shown.trades = '';
    if (id) history.replaceState(null, '', `#trade=${id}`);
    else history.replaceState(null, '', location.pathname + location.search);
    void attempt(refresh);
  }

  async function move(id: string, state: string): Promise<void> {
    await api.call('POST', '/trades/:id/transition', { param: { id }, json: { state } });
    say(t('detail.moved', { state: word('state', state) }));
    await refresh();
  }

  async function replay(eventId: string): Promise<void> {
    const answer = await api.call('POST', '/callbacks/:id/replay', { param: { id: eventId } });
    say(t('callback.replayed', { id: eventId, replay: answer.callback.id }));
    await refresh();
  }

  el.loginForm.addEventListener('submit', (event) => {
    event.preventDefault();
    const value = el.tokenInput.value.trim();
    if (!value) {
      el.loginError.textContent = t('login.empty');
      return;
    }
    api.token.set(value);
    locked = false;
    el.login.hidden = true;
    el.app.hidden = false;
    el.signout.hidden = false;
    shown.trades = shown.detail = shown.clock = '';
    void attempt(async () => {
      await loadMerchants();
      await refresh();
      await loadScenarios();
    });
  });

  el.signout.hidden = !api.token.get();
  el.signout.addEventListener('click', () => {
    api.token.clear();
    el.signout.hidden = true;
    showLogin(t('login.forgotten'));
  });

  el.advanceForm.addEventListener('submit', (event) => {
    event.preventDefault();
    const by = el.advanceInput.value.trim() || '10m';
    // The Russian page refuses in Russian what the admin API would refuse in English, and says the step in Russian units.
    const ms = parseDuration(by);
    if (lang !== 'en' && (ms === undefined || ms > ADVANCE_LIMIT_MS)) {
      el.advanceInput.setAttribute('aria-invalid', 'true');
      say(dom.explain.clock(ms === undefined ? 'notDuration' : 'tooFar', by), 'error');
      return;
    }
    el.advanceInput.removeAttribute('aria-invalid');
    void attempt(async () => {
      const answer = await api.call('POST', '/clock/advance', { json: { by } });
      const said = lang === 'en' || ms === undefined ? by : formatRussianDuration(ms);
      say(t('clock.advanced', { by: said, now: formatDateTime(answer.now, dom.lang), count: answer.ran }));
      await refresh();
    });
  });

  el.reset.addEventListener('click', () => {
    if (!confirm(t('reset.confirm'))) return;
    void attempt(async () => {
      const answer = await api.call('POST', '/reset');
      say(
        t('reset.done', {
          trades: t('reset.trades', { count: answer.removed.trades }),
          callbacks: t('reset.callbacks', { count: answer.removed.callbacks }),
          jobs: t('reset.jobs', { count: answer.removed.jobs }),
        }),
      );
      select(null);
    });
  });

  // The workspace's recorded session as a HAR file (GET /_sandbox/session.har), fetched with the admin token.
  el.sessionDownload.addEventListener('click', () => {
    void attempt(async () => {
      const har = await api.call('GET', '/session.har');
      const link = document.createElement('a');
      link.href = URL.createObjectURL(new Blob([JSON.stringify(har, null, 2)], { type: 'application/json' }));
      link.download = `${document.documentElement.dataset['workspace'] || 'default'}.har`;
      link.click();
      setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
    });
  });

  let filterTimer: ReturnType<typeof setTimeout> | undefined;
  el.filters.addEventListener('submit', (event) => event.preventDefault());
  el.filters.addEventListener('change', () => void attempt(loadTrades));
  el.filters.addEventListener('input', () => {
    clearTimeout(filterTimer);
    filterTimer = setTimeout(() => void attempt(loadTrades), 250);
  });
  window.addEventListener('hashchange', () => {
    const id = fromHash();
    if (id !== selected) select(id);
  });

  void attempt(async () => {
    await loadMerchants();
    if (locked) return;
    await refresh();
    if (!locked) await loadScenarios();
  });
  poll();
  return { select: (id: string) => select(id) };
}
