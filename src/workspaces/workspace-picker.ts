/**
 * The dashboard's workspace picker (runs in the browser as source text: nothing from outside
 * its body). It reads the page's workspace from `<body data-workspace>`, lists the server's
 * workspaces (GET /_sandbox/workspaces) in a datalist, and opens the dashboard of the one
 * chosen or typed (a new name creates it on first use).
 */
export function workspacePicker() {
  const form = document.querySelector<HTMLFormElement>('[data-testid="workspace-form"]');
  const input = document.querySelector<HTMLInputElement>('[data-testid="workspace-input"]');
  const names = document.querySelector<HTMLDataListElement>('#workspace-names');
  if (!form || !input || !names) return;
  const NAME = /^[A-Za-z0-9_.-]{1,64}$/;
  const current = document.body.dataset['workspace'] ?? 'default';
  input.value = current;

  const headers: Record<string, string> = { Accept: 'application/json' };
  const token = sessionStorage.getItem('deposit-sandbox.admin-token');
  if (token) headers['Authorization'] = `Bearer ${token}`;
  void fetch('/_sandbox/workspaces', { headers, cache: 'no-store' })
    .then((res) => (res.ok ? (res.json() as Promise<{ workspaces: Array<{ name: string; trades: number; pending_steps: number }> }>) : undefined))
    .then((answer) => {
      for (const workspace of answer?.workspaces ?? []) {
        const option = document.createElement('option');
        option.value = workspace.name;
        option.label = `${workspace.trades} trades, ${workspace.pending_steps} pending`;
        names.appendChild(option);
      }
    })
    .catch(() => undefined);

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const name = input.value.trim();
    if (!NAME.test(name) || name === '.' || name === '..') {
      input.setCustomValidity('1 to 64 of A-Z a-z 0-9 _ . -');
      input.reportValidity();
      return;
    }
    input.setCustomValidity('');
    if (name !== current) location.assign(name === 'default' ? '/_sandbox/' : `/w/${name}/_sandbox/`);
  });
}
