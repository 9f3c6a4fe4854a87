/** The go-live page's own rules, after the dashboard's stylesheet: served at /go-live/assets/go-live.css. */
export const GO_LIVE_CSS = `
.go-live { padding: 1rem 1.25rem 2rem; max-width: 72rem; }
form.go-live-form { display: grid; grid-template-columns: 2fr 2fr 1.5fr auto; gap: .5rem; margin: .75rem 0; }
form.go-live-form input, form.go-live-form button { min-height: 38px; padding: .35em .6em; }
@media (max-width: 760px) { form.go-live-form { grid-template-columns: 1fr; } .go-live { padding: .75rem; } }
table.go-live-rows td.row-id { white-space: nowrap; font-family: var(--mono, monospace); font-size: .85rem; }
table.go-live-rows p { margin: .1rem 0; }
`;
