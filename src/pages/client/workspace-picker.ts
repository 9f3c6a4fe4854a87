import type { DashboardApi } from './dashboard-api.js';
import type { DashboardDom } from './dashboard-dom.js';

const NAME = /^[A-Za-z0-9_.-]{1,64}$/;

/**
 * The dashboard's workspace picker: lists the server's workspaces (GET /_sandbox/workspaces at
 * the server's root) in a datalist, and opens the dashboard of the one chosen or typed (a new
 * name creates it on first use). The page's own workspace is `<html data-workspace>`.
 */
export function workspacePicker(dom: DashboardDom, api: DashboardApi): void {
  const { byTestId, t } = dom;
  const form = byTestId<HTMLFormElement>('workspace-form');
  const input = byTestId<HTMLInputElement>('workspace-input');
  const names = document.querySelector<HTMLDataListElement>('#workspace-names');
  const current = document.documentElement.dataset['workspace'] ?? 'default';
  const lang = document.documentElement.lang === 'ru' ? '?lang=ru' : '';
  input.value = current;

  // The listing lives at the server's root, whichever workspace this dashboard shows.
  void api
    .call('GET', '/workspaces', {}, '')
    .then((answer) => {
      for (const workspace of answer.workspaces) {
        const option = document.createElement('option');
        option.value = workspace.name;
        option.label = t('workspace.summary', { trades: workspace.trades, pending: workspace.pending_steps });
        names?.appendChild(option);
      }
    })
    .catch(() => undefined);

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const name = input.value.trim();
    if (!NAME.test(name) || name === '.' || name === '..') {
      input.setCustomValidity(t('workspace.invalid'));
      input.reportValidity();
      return;
    }
    input.setCustomValidity('');
    if (name !== current) location.assign(`${name === 'default' ? '' : `/w/${name}`}/_sandbox/${lang}`);
  });
}
