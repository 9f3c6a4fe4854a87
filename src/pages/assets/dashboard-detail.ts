import type { DashboardDom } from './dashboard-dom.js';
import type { CallbackEvent, DetailActions as Actions, TradeDetailAnswer } from './dashboard-types.js';

/**
 * Renders one trade's detail: fields, the transitions it allows, its history, pending
 * steps and every callback attempt. Runs in the browser as source text (nothing from
 * outside its body but the `dom` argument).
 */
export function dashboardDetail(dom: DashboardDom) {
  const { h, badge, time, rubles } = dom;

  const field = (label: string, value: Node | string | number | null | undefined, testid?: string) =>
    h('div', {}, h('dt', {}, label), h('dd', { testid }, value === null || value === undefined || value === '' ? '—' : value));

  const table = (headings: string[], rows: HTMLTableRowElement[], testid: string, empty: string) =>
    rows.length === 0
      ? h('p', { class: 'muted', testid }, empty)
      : h('div', { class: 'scroll' }, h('table', { testid }, h('thead', {}, h('tr', {}, ...headings.map((text) => h('th', {}, text)))), h('tbody', {}, ...rows)));

  function callback(event: CallbackEvent, actions: Actions): HTMLElement {
    const attempts = event.attempts.map((attempt) =>
      h(
        'tr',
        { testid: 'attempt' },
        h('td', {}, String(attempt.attempt)),
        h('td', {}, attempt.kind ?? 'delivery'),
        h('td', {}, time(attempt.at)),
        h('td', { testid: 'attempt-status' }, attempt.status === null ? 'no answer' : String(attempt.status)),
        h('td', { class: 'num' }, `${Math.round(attempt.duration_ms)} ms`),
        h('td', {}, h('pre', { testid: 'attempt-response' }, attempt.response || '(empty)'), attempt.error && h('p', { class: 'error-text' }, attempt.error), attempt.warning && h('p', { class: 'warn-text' }, attempt.warning)),
      ),
    );
    return h(
      'article',
      { class: 'callback', testid: 'callback', 'data-id': event.id },
      h(
        'header',
        {},
        h('span', {}, `#${event.seq} → ${event.state} `),
        badge(event.status, 'callback-status'),
        h('span', { class: 'mono muted url' }, event.url),
        event.replay_of && h('span', { class: 'muted' }, `replay of ${event.replay_of}`),
        h('button', { type: 'button', testid: 'replay', onclick: () => actions.replay(event.id) }, 'Replay'),
      ),
      h('p', { class: 'muted small' }, `Event ${event.id}, created `, time(event.created_at)),
      table(['#', 'Kind', 'At', 'Status', 'Duration', 'Answer'], attempts, 'attempts', 'No attempt yet.'),
    );
  }

  function render(detail: TradeDetailAnswer, actions: Actions): HTMLElement {
    const { trade } = detail;
    const data = trade.payment_data;
    const moves =
      trade.allowed.length === 0
        ? h('p', { class: 'muted', testid: 'no-moves' }, `${trade.state} is final: no moves.`)
        : h(
            'div',
            { class: 'moves' },
            h('span', { class: 'muted' }, 'Move to'),
            ...trade.allowed.map((state) => h('button', { type: 'button', class: state === 'confirmed' ? 'primary' : undefined, testid: `transition-${state}`, onclick: () => actions.transition(state) }, state)),
          );
    const history = detail.history.map((entry) =>
      h('tr', {}, h('td', {}, time(entry.at)), h('td', {}, entry.from ?? '—', ' → ', badge(entry.to)), h('td', {}, entry.cause), h('td', {}, entry.note ?? '')),
    );
    const pending = detail.pending.map((job) =>
      h('tr', {}, h('td', {}, time(new Date(job.due).toISOString())), h('td', {}, job.kind), h('td', { class: 'mono' }, JSON.stringify(job.data))),
    );
    return h(
      'div',
      { testid: 'trade-detail', 'data-id': trade.id },
      h('h2', {}, h('span', { testid: 'detail-order' }, trade.order), ' ', badge(trade.state, 'detail-state')),
      moves,
      h(
        'dl',
        { class: 'fields' },
        field('Id', h('span', { class: 'mono' }, trade.id), 'detail-id'),
        field('Merchant', h('span', { class: 'mono' }, trade.merchant)),
        field('Type', trade.type),
        field('Amount', rubles(trade.amount_cents), 'detail-amount'),
        field('Rate', trade.rate),
        field('Customer', trade.customer, 'detail-customer'),
        field('Callback URL', trade.callback_url),
        field('Return URL', trade.return_url),
        field('Scenario', trade.scenario),
        field('Created', time(trade.created_at)),
        field('Updated', time(trade.updated_at)),
        field('Payment page', h('a', { href: `${document.body.dataset['base'] ?? ''}/pay/${encodeURIComponent(trade.id)}`, target: '_blank', rel: 'noopener' }, 'open')),
        'number' in data ? field('Requisites', `${data.number} · ${data.bank_name} · ${data.name}`) : null,
      ),
      h('h3', {}, 'History'),
      table(['At', 'Move', 'Cause', 'Note'], history, 'history', 'No history.'),
      h('h3', {}, 'Pending steps'),
      table(['Due', 'Kind', 'Data'], pending, 'pending', 'Nothing scheduled.'),
      h('h3', {}, `Callbacks (${detail.callbacks.length})`),
      detail.callbacks.length === 0
        ? h('p', { class: 'muted', testid: 'callbacks' }, trade.callback_url ? 'No callback yet.' : 'This trade has no callback_url, so no callbacks are sent.')
        : h('div', { testid: 'callbacks' }, ...detail.callbacks.map((event) => callback(event, actions))),
    );
  }

  return { render };
}

export type DashboardDetail = ReturnType<typeof dashboardDetail>;
