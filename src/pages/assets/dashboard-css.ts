import { BASE_CSS } from './base-css.js';

/** The dashboard's stylesheet, served at /_sandbox/assets/dashboard.css. */
export const DASHBOARD_CSS = `${BASE_CSS}
body { font-size: 15px; }
header.top { display: flex; flex-wrap: wrap; align-items: center; gap: .75rem 1.25rem; padding: .75rem 1.25rem; background: var(--panel); border-bottom: 1px solid var(--line); }
header.top h1 { font-size: 1.1rem; margin: 0; }
.workspace { display: flex; flex-wrap: wrap; align-items: center; gap: .2rem .4rem; }
.workspace label { font-size: .9rem; color: var(--muted); }
@media (max-width: 560px) { .workspace label { flex-basis: 100%; } }
.workspace input { width: 10rem; min-height: 36px; padding: .3em .5em; }
.header-actions { display: flex; flex-wrap: wrap; gap: .5rem; margin-left: auto; }
.clock { display: flex; flex-wrap: wrap; align-items: center; gap: .35rem .9rem; font-size: .9rem; }
.clock b { font-variant-numeric: tabular-nums; }
.clock form { display: flex; gap: .4rem; }
.clock input { width: 6.5rem; min-height: 36px; padding: .3em .5em; }
header.top button { min-height: 36px; padding: .3em .8em; }
header.top .profile { font-size: .9rem; }
.message { margin: .75rem 1.25rem 0; padding: .6rem .85rem; border-radius: 8px; overflow-wrap: anywhere; }
.message.ok { background: var(--ok-bg); color: var(--ok); }
.message.error { background: var(--bad-bg); color: var(--bad); }
.layout {
  display: grid; gap: 1rem; padding: 1rem 1.25rem 2rem; align-items: start;
  grid-template-columns: minmax(0, 1.3fr) minmax(0, 1fr); grid-template-rows: auto auto auto 1fr;
  grid-template-areas: "new new" "trades trades" "detail check" "detail scenarios";
}
.new-panel { grid-area: new; }
/* Fields wrap like words: each at least 11rem, a select as wide as its longest option (so
   "ecom: карта на платёжной странице" is not cut on a desktop), all growing to fill the line. */
form.new-trade { display: flex; flex-wrap: wrap; gap: .5rem .75rem; align-items: flex-end; }
form.new-trade > .field { flex: 1 1 11rem; min-width: 0; }
form.new-trade > .field:has(> select) { flex-basis: auto; }
form.new-trade select { width: 100%; max-width: 100%; }
form.new-trade label { display: block; font-size: .8rem; color: var(--muted); margin-bottom: .2rem; }
form.new-trade input, form.new-trade select, form.new-trade button { min-height: 38px; padding: .35em .6em; }
form.new-trade button { width: 100%; }
.header-actions .langs { align-self: center; margin: 0 .5rem 0 0; }
.header-actions .langs a { color: var(--accent); }
td.nowrap, th { white-space: nowrap; }
/* An order wraps where it has a space or a hyphen, never inside a word: one longer than the cell widens the table, which scrolls in its frame. */
table.trades td.order { overflow-wrap: normal; word-break: normal; min-width: 10rem; }
.trades-panel { grid-area: trades; }
.detail-panel { grid-area: detail; }
.scenarios-panel { grid-area: scenarios; }
.check-panel { grid-area: check; }
form.check-form { display: grid; grid-template-columns: 2fr 1.5fr auto; gap: .5rem; }
form.check-form input, form.check-form button { min-height: 38px; padding: .35em .6em; }
@media (max-width: 560px) { form.check-form { grid-template-columns: 1fr; } }
.ok-text { color: var(--ok); margin: .2rem 0 .4rem; font-size: .9rem; }
@media (max-width: 980px) {
  .layout { grid-template-columns: minmax(0, 1fr); grid-template-rows: none; grid-template-areas: "new" "trades" "detail" "check" "scenarios"; padding: .75rem; }
}
.panel { background: var(--panel); border: 1px solid var(--line); border-radius: var(--radius); padding: 1rem; min-width: 0; }
h2 { font-size: 1.05rem; margin: 0 0 .75rem; overflow-wrap: anywhere; }
h3 { font-size: .95rem; margin: 1.25rem 0 .5rem; }
form.filters { display: grid; grid-template-columns: 2fr 1fr 1.5fr; gap: .5rem; margin-bottom: .6rem; }
@media (max-width: 560px) { form.filters { grid-template-columns: 1fr; } .wide-only { display: none; } table.trades td.order { min-width: 0; } }
/* On a phone the trades list scrolls in its frame, so the page is as tall with 100 trades as with
   10; its heading row stays in view, and a shadow at the frame's foot says more rows are there. */
@media (max-width: 560px) {
  .trades-panel .scroll {
    max-height: 26rem; overflow-y: auto;
    background:
      linear-gradient(to top, var(--panel) 30%, rgb(255 255 255 / 0)) center bottom / 100% 2.5rem no-repeat local,
      radial-gradient(farthest-side at 50% 100%, rgb(0 0 0 / .25), rgb(0 0 0 / 0)) center bottom / 100% .9rem no-repeat scroll;
    background-color: var(--panel);
  }
  table.trades thead th { position: sticky; top: 0; background: var(--panel); }
  .panel dl.fields { grid-template-columns: repeat(2, minmax(0, 1fr)); }
  dl.fields time { white-space: normal; }
  dl.fields > .wide { grid-column: 1 / -1; }
}
form.filters input, form.filters select { min-height: 38px; padding: .35em .6em; }
/* A table wider than its panel scrolls sideways inside a frame. The shadows at the frame's edges
   say more columns are there: each is covered by a panel-coloured band that scrolls with the table
   (attachment local) and uncovers it as the table reaches that edge. */
.scroll {
  overflow-x: auto; border: 1px solid var(--line); border-radius: 8px;
  background:
    linear-gradient(to right, var(--panel) 30%, rgb(255 255 255 / 0)) left center / 2.5rem 100% no-repeat local,
    linear-gradient(to left, var(--panel) 30%, rgb(255 255 255 / 0)) right center / 2.5rem 100% no-repeat local,
    radial-gradient(farthest-side at 0 50%, rgb(0 0 0 / .25), rgb(0 0 0 / 0)) left center / .9rem 100% no-repeat scroll,
    radial-gradient(farthest-side at 100% 50%, rgb(0 0 0 / .25), rgb(0 0 0 / 0)) right center / .9rem 100% no-repeat scroll;
  background-color: var(--panel);
}
.scroll > table tr:last-child > td { border-bottom: 0; }
/* The panels QA opens when needed: the heading is the summary, with a triangle that turns when open. */
details.section > summary { display: flex; align-items: center; gap: .5rem; min-height: 44px; cursor: pointer; list-style: none; border-radius: 6px; }
details.section > summary::-webkit-details-marker { display: none; }
details.section > summary::before { content: "▸"; color: var(--muted); font-size: 1.1rem; }
details.section[open] > summary::before { transform: rotate(90deg); }
details.section > summary > h2 { margin: 0; }
details.section[open] > summary { margin-bottom: .75rem; }
details.section > summary:focus-visible { outline: 3px solid #9db5f5; outline-offset: 2px; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: .4rem .5rem; border-bottom: 1px solid var(--line); vertical-align: top; font-size: .9rem; }
th { color: var(--muted); font-weight: 600; font-size: .8rem; white-space: nowrap; }
th.num { text-align: right; }
td.num { text-align: right; white-space: nowrap; font-variant-numeric: tabular-nums; }
td.empty { text-align: center; padding: 1.5rem; }
tbody tr[data-testid="trade-row"] { cursor: pointer; }
tbody tr[data-testid="trade-row"]:hover { background: #f7f9fc; }
tbody tr.selected { background: #eef3ff; }
time { white-space: nowrap; font-variant-numeric: tabular-nums; }
.moves { display: flex; flex-wrap: wrap; align-items: center; gap: .5rem; margin-bottom: .75rem; }
.moves button { min-height: 38px; }
dl.fields { display: grid; grid-template-columns: repeat(auto-fill, minmax(200px, 1fr)); gap: .5rem 1rem; margin: 0; }
dl.fields dt { color: var(--muted); font-size: .75rem; text-transform: uppercase; letter-spacing: .04em; }
dl.fields dd { margin: 0; overflow-wrap: break-word; }
article.callback { border: 1px solid var(--line); border-radius: 8px; padding: .6rem .75rem; margin-bottom: .6rem; }
article.callback header { display: flex; flex-wrap: wrap; align-items: center; gap: .4rem .6rem; }
article.callback header button { margin-left: auto; min-height: 32px; padding: .2em .7em; }
.url { overflow-wrap: anywhere; font-size: .85rem; }
.small { font-size: .8rem; margin: .3rem 0; }
pre { margin: 0; white-space: pre-wrap; overflow-wrap: anywhere; max-height: 8rem; overflow: auto; font-family: var(--mono); font-size: .8rem; }
.error-text { color: var(--bad); margin: .2rem 0 0; font-size: .85rem; }
.warn-text { color: var(--warn); margin: .2rem 0 0; font-size: .85rem; }
.login { max-width: 420px; margin: 3rem auto; }
.login h1 { font-size: 1.3rem; margin: 0 0 .75rem; }
.login form { display: grid; gap: .6rem; }
.login .error-text:empty { display: none; }
`;
