/** Styles shared by the payment page and the dashboard: system fonts, no external resources. */
export const BASE_CSS = `
:root {
  --bg: #f4f5f7; --panel: #fff; --text: #1d2330; --muted: #525d6b; --line: #dfe3e8;
  --accent: #2454d6; --accent-text: #fff; --ok: #136b3c; --ok-bg: #e3f5eb; --bad: #a01f18; --bad-bg: #fdeceb;
  --warn: #6f4800; --warn-bg: #fff4d6; --radius: 10px;
  --mono: ui-monospace, SFMono-Regular, "SF Mono", Menlo, Consolas, "Liberation Mono", monospace;
  color-scheme: light;
}
*, *::before, *::after { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; text-size-adjust: 100%; }
body {
  margin: 0; background: var(--bg); color: var(--text);
  font: 16px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Liberation Sans", Arial, sans-serif;
}
a { color: var(--accent); }
button, input, select { font: inherit; }
button {
  cursor: pointer; border: 1px solid var(--line); background: var(--panel); color: var(--text);
  border-radius: 8px; padding: .55em 1em; min-height: 44px;
}
button:hover { border-color: #b9c0ca; }
button:focus-visible, input:focus-visible, select:focus-visible, a:focus-visible { outline: 3px solid #9db5f5; outline-offset: 1px; }
button.primary { background: var(--accent); border-color: var(--accent); color: var(--accent-text); font-weight: 600; }
button.primary:hover { background: #1b44b3; }
button.danger { color: var(--bad); }
button:disabled { opacity: .55; cursor: default; }
input, select {
  width: 100%; border: 1px solid #c5ccd6; border-radius: 8px; padding: .6em .75em; background: #fff; color: var(--text); min-height: 44px;
}
input[aria-invalid="true"] { border-color: var(--bad); background: #fffafa; }
.mono { font-family: var(--mono); }
.muted { color: var(--muted); }
.badge {
  display: inline-block; border-radius: 999px; padding: .1em .65em; font-size: .85em; font-weight: 600;
  background: #e8ecf2; color: var(--muted); white-space: nowrap;
}
.badge.confirmed, .badge.delivered { background: var(--ok-bg); color: var(--ok); }
.badge.canceled, .badge.failed { background: var(--bad-bg); color: var(--bad); }
.badge.expired, .badge.pending { background: var(--warn-bg); color: var(--warn); }
.badge.created, .badge.ecom { background: #e6edfc; color: var(--accent); }
.sandbox-banner {
  background: #2b2f3a; color: #f2f4f7; font-size: .85rem; text-align: center; padding: .4rem 1rem;
}
.sandbox-banner strong { color: #ffd166; }
.sandbox-banner p { margin: 0; display: inline; }
.langs { display: inline-flex; gap: .75rem; margin-left: .9rem; }
.langs a { color: #cfe0ff; }
.langs [aria-current] { font-weight: 700; text-decoration: none; }
`;
