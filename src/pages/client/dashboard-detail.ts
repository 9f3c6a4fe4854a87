import type { DashboardDom } from './dashboard-dom.js';
import { basePath } from './dashboard-i18n.js';
import type { CallbackEvent, DetailActions as Actions, TradeDetailAnswer } from './dashboard-types.js';

/**
 * Renders one trade's detail: fields, the transitions it allows, its history, pending
 * steps and every callback attempt.
 */
export function dashboardDetail(dom: DashboardDom, merchantName: (id: string) => string) {
  const { h, badge, time, rubles, t, word, said } = dom;

  /** One field; `wide` takes a whole line where the fields stand two to a line (a phone). */
  const field = (label: string, value: Node | string | number | null | undefined, testid?: string, wide = false) =>
    h('div', { class: wide ? 'wide' : undefined }, h('dt', {}, label), h('dd', { testid }, value === null || value === undefined || value === '' ? '—' : value));

  const table = (headings: string[], rows: HTMLTableRowElement[], testid: string, empty: string) =>
    rows.length === 0
      ? h('p', { class: 'muted', testid }, empty)
      : h('div', { class: 'scroll', tabindex: 0 }, h('table', { testid }, h('thead', {}, h('tr', {}, ...headings.map((text) => h('th', { scope: 'col' }, text)))), h('tbody', {}, ...rows)));

  function callback(event: CallbackEvent, actions: Actions): HTMLElement {
    const attempts = event.attempts.map((attempt) =>
      h(
        'tr',
        { testid: 'attempt' },
        h('td', {}, String(attempt.attempt)),
        h('td', { 'data-kind': attempt.kind ?? 'delivery', testid: 'attempt-kind' }, word('attempt', attempt.kind ?? 'delivery')),
        h('td', {}, time(attempt.at)),
        h('td', { testid: 'attempt-status' }, attempt.status === null ? t('callback.noAnswer') : String(attempt.status)),
        h('td', { class: 'num' }, t('unit.ms', { ms: Math.round(attempt.duration_ms) })),
        h(
          'td',
          {},
          h('pre', { testid: 'attempt-response' }, attempt.response || t('callback.empty')),
          attempt.error && h('p', { class: 'error-text' }, attempt.error),
          attempt.warning && h('p', { class: 'warn-text' }, attempt.warning),
        ),
      ),
    );
    return h(
      'article',
      { class: 'callback', testid: 'callback', 'data-id': event.id },
      h(
        'header',
        {},
        h('span', { 'data-state': event.state }, `#${event.seq} → ${word('state', event.state)} `),
        badge(event.status, 'callback-status', 'callbackStatus'),
        h('span', { class: 'mono muted url' }, event.url),
        event.replay_of && h('span', { class: 'muted' }, t('callback.replayOf', { id: event.replay_of })),
        h('button', { type: 'button', testid: 'replay', onclick: () => actions.replay(event.id) }, t('callback.replay')),
      ),
      h('p', { class: 'muted small' }, t('callback.event', { id: event.id }), ' ', time(event.created_at)),
      table([t('col.number'), t('col.kind'), t('col.at'), t('col.status'), t('col.duration'), t('col.answer')], attempts, 'attempts', t('callback.noAttempt')),
    );
  }

  function render(detail: TradeDetailAnswer, actions: Actions): HTMLElement {
    const { trade } = detail;
    const data = trade.payment_data;
    const moves =
      trade.allowed.length === 0
        ? h('p', { class: 'muted', testid: 'no-moves' }, t('detail.final', { state: word('state', trade.state) }))
        : h(
            'div',
            { class: 'moves' },
            h('span', { class: 'muted' }, t('detail.moveTo')),
            ...trade.allowed.map((state) =>
              h(
                'button',
                { type: 'button', class: state === 'confirmed' ? 'primary' : undefined, testid: `transition-${state}`, 'data-state': state, onclick: () => actions.transition(state) },
                word('state', state),
              ),
            ),
          );
    const history = detail.history.map((entry) =>
      h(
        'tr',
        {},
        h('td', {}, time(entry.at)),
        h('td', { 'data-from': entry.from ?? undefined }, entry.from ? word('state', entry.from) : '—', ' → ', badge(entry.to, 'history-to')),
        h('td', { 'data-cause': entry.cause, testid: 'history-cause' }, word('cause', entry.cause)),
        h('td', { testid: 'history-note' }, entry.note === undefined ? '' : said({ text: entry.note, code: entry.note_code, params: entry.note_params })),
      ),
    );
    const pending = detail.pending.map((job) => h('tr', {}, h('td', {}, time(new Date(job.due).toISOString())), h('td', {}, job.kind), h('td', { class: 'mono' }, JSON.stringify(job.data))));
    return h(
      'div',
      { testid: 'trade-detail', 'data-id': trade.id },
      h('h2', {}, h('span', { testid: 'detail-order' }, trade.order), ' ', badge(trade.state, 'detail-state')),
      moves,
      h(
        'dl',
        { class: 'fields' },
        field(t('detail.id'), h('span', { class: 'mono' }, trade.id), 'detail-id', true),
        field(t('detail.merchant'), merchantName(trade.merchant)),
        field(t('detail.type'), h('span', { 'data-type': trade.type }, word('type', trade.type)), 'detail-type'),
        field(t('detail.amount'), rubles(trade.amount_cents), 'detail-amount'),
        field(t('detail.rate'), trade.rate),
        field(t('detail.customer'), trade.customer, 'detail-customer'),
        // A URL has no word to keep whole: it wraps anywhere (.url).
        field(t('detail.callbackUrl'), trade.callback_url && h('span', { class: 'url' }, trade.callback_url)),
        field(t('detail.returnUrl'), trade.return_url && h('span', { class: 'url' }, trade.return_url)),
        field(t('detail.scenario'), trade.scenario),
        field(t('detail.created'), time(trade.created_at)),
        field(t('detail.updated'), time(trade.updated_at)),
        field(t('detail.page'), h('a', { href: `${basePath()}/pay/${encodeURIComponent(trade.id)}?lang=${dom.lang}`, target: '_blank', rel: 'noopener' }, t('detail.open'))),
        'number' in data ? field(t('detail.requisites'), `${data.number} · ${data.bank_name} · ${data.name}`, undefined, true) : null,
      ),
      h('h3', {}, t('detail.history')),
      table([t('col.at'), t('col.move'), t('col.cause'), t('col.note')], history, 'history', t('detail.noHistory')),
      h('h3', {}, t('detail.pending')),
      table([t('col.due'), t('col.kind'), t('col.data')], pending, 'pending', t('detail.nothingScheduled')),
      h('h3', {}, t('detail.callbacks', { count: detail.callbacks.length })),
      detail.callbacks.length === 0
        ? h('p', { class: 'muted', testid: 'callbacks' }, trade.callback_url ? t('detail.noCallback') : t('detail.noCallbackUrl'))
        : h('div', { testid: 'callbacks' }, ...detail.callbacks.map((event) => callback(event, actions))),
    );
  }

  return { render };
}

export type DashboardDetail = ReturnType<typeof dashboardDetail>;
