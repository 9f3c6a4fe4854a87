import { isGoLiveOwnRow } from '../../go-live/go-live-own-rows.js';
import type { GoLiveChecklist, GoLiveRow } from '../../go-live/go-live-schema.js';
import { dashboardApi } from './dashboard-api.js';
import { dashboardDom } from './dashboard-dom.js';
import { dashboardI18n } from './dashboard-i18n.js';

/**
 * The go-live page's browser script: bundled by rolldown into dist/client/go-live.js and served
 * at /go-live/assets/go-live.js. Reads the checklist (GET /_sandbox/go-live) with the admin token
 * the dashboard keeps for this tab, and checks a receiver (POST /_sandbox/go-live).
 */
const i18n = dashboardI18n();
const { h, fill, byTestId, t } = dashboardDom(i18n);
const api = dashboardApi(i18n);
const form = byTestId<HTMLFormElement>('go-live-form');
const receiver = byTestId<HTMLInputElement>('go-live-receiver');
const probe = byTestId<HTMLInputElement>('go-live-probe');
const merchant = byTestId<HTMLInputElement>('go-live-merchant');
const run = byTestId<HTMLButtonElement>('go-live-run');
const result = byTestId('go-live-result');

/** The badge class of each status: the dashboard's colours for delivered, pending and failed. */
const BADGE = { met: 'delivered', not_met: 'pending', wrong: 'failed' } as const;

/** A row's title in the page's language: the coverage rows' words of the report panel, the two go-live rows' own. */
const title = (row: GoLiveRow): string => (isGoLiveOwnRow(row.id) ? t(`golive.row.${row.id}`) : t(`coverage.${row.id}`));

function explain(row: GoLiveRow): HTMLElement {
  if (row.status === 'not_met') return h('td', {}, h('p', { class: 'small muted', testid: 'go-live-exercise' }, t('golive.exercise', { how: row.exercise ?? '' })));
  const shown = row.status === 'wrong' ? row.evidence.filter((e) => e.status === 'wrong') : row.evidence.filter((e) => e.status === 'met');
  return h('td', {}, ...shown.map((e) => h('p', { class: row.status === 'wrong' ? 'error-text' : 'small muted', testid: 'go-live-evidence' }, `${e.source}: ${e.detail}`)));
}

function render(checklist: GoLiveChecklist): void {
  const { met, not_met: notMet, wrong } = checklist.counts;
  const who = checklist.name !== undefined ? `${checklist.name} (${checklist.merchant})` : checklist.merchant;
  const found = checklist.receiver;
  fill(
    result,
    h('p', { testid: 'go-live-summary', class: checklist.ready ? 'ok-text' : 'error-text' }, checklist.ready ? t('golive.ready', { count: met }) : t('golive.notReady', { met, notMet, wrong })),
    h('p', { class: 'small' }, t('golive.merchantLine', { merchant: who })),
    h('p', { class: 'small muted', testid: 'go-live-receiver-line' }, found ? t('golive.receiverLine', { url: found.url, seed: found.seed, runs: found.runs }) : t('golive.noReceiver')),
    h(
      'div',
      { class: 'scroll', tabindex: 0 },
      h(
        'table',
        { class: 'go-live-rows' },
        h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, t('golive.col.status')), h('th', { scope: 'col' }, t('golive.col.row')), h('th', { scope: 'col' }, t('golive.col.what')))),
        h(
          'tbody',
          {},
          ...checklist.rows.map((row) =>
            h(
              'tr',
              { testid: 'go-live-row', 'data-row': row.id, 'data-status': row.status },
              h('td', {}, h('span', { class: `badge ${BADGE[row.status]}`, testid: 'go-live-status' }, t(`golive.status.${row.status}`))),
              h('td', {}, h('p', {}, title(row)), h('p', { class: 'small muted row-id' }, row.id)),
              explain(row),
            ),
          ),
        ),
      ),
    ),
  );
}

function failed(error: unknown): void {
  const signIn = error instanceof api.ApiError && error.status === 401;
  fill(result, h('p', { class: 'error-text', testid: 'go-live-summary' }, signIn ? t('golive.signIn') : error instanceof Error ? error.message : String(error)));
}

form.addEventListener('submit', (event) => {
  event.preventDefault();
  const url = receiver.value.trim();
  if (!url) {
    fill(result, h('p', { class: 'error-text', testid: 'go-live-summary' }, t('golive.enterUrl')));
    return;
  }
  const body: { receiver: string; probe?: string; merchant?: string } = { receiver: url };
  if (probe.value.trim()) body.probe = probe.value.trim();
  if (merchant.value.trim()) body.merchant = merchant.value.trim();
  run.disabled = true;
  fill(result, h('p', { class: 'muted', testid: 'go-live-running' }, t('golive.running', { url })));
  api
    .call('POST', '/go-live', { json: body })
    .then(render, failed)
    .finally(() => (run.disabled = false));
});

api.call('GET', '/go-live', { query: {} }).then(render, failed);
