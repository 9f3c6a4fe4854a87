import { BASE_CSS } from './base-css.js';

/** The payment and result pages' stylesheet, served at /assets/pay.css. */
export const PAY_CSS = `${BASE_CSS}
main { max-width: 460px; margin: 0 auto; padding: 1.25rem 1rem 2.5rem; }
.panel { background: var(--panel); border: 1px solid var(--line); border-radius: var(--radius); padding: 1.25rem; box-shadow: 0 1px 2px rgba(16,24,40,.05); }
.panel + .panel { margin-top: 1rem; }
.merchant { font-weight: 700; font-size: 1.05rem; margin: 0; overflow-wrap: anywhere; }
.order { margin: .15rem 0 0; color: var(--muted); font-size: .9rem; overflow-wrap: anywhere; }
.amount { font-size: 2.1rem; font-weight: 700; letter-spacing: -.01em; margin: .9rem 0 .2rem; white-space: nowrap; font-variant-numeric: tabular-nums; }
.countdown { display: flex; flex-wrap: wrap; gap: .1rem .45rem; align-items: baseline; background: var(--warn-bg); color: var(--warn); border-radius: 8px; padding: .45em .75em; font-size: .95rem; margin-top: .4rem; }
.countdown b { font-variant-numeric: tabular-nums; font-size: 1.05rem; }
.countdown .note { flex-basis: 100%; font-size: .8rem; color: #5a4500; }
h1 { font-size: 1.2rem; margin: 0 0 .75rem; }
h2 { font-size: 1rem; margin: 0 0 .75rem; }
dl.requisites { margin: 0; display: grid; gap: .75rem; }
dl.requisites div { border-bottom: 1px solid var(--line); padding-bottom: .6rem; }
dl.requisites div:last-child { border-bottom: 0; padding-bottom: 0; }
dl.requisites dt { color: var(--muted); font-size: .8rem; text-transform: uppercase; letter-spacing: .04em; }
dl.requisites dd { margin: .15rem 0 0; display: flex; flex-wrap: wrap; align-items: center; justify-content: space-between; gap: .5rem .75rem; overflow-wrap: anywhere; }
.number { font-family: var(--mono); font-size: 1.2rem; letter-spacing: .03em; white-space: nowrap; }
button.copy { min-height: 36px; padding: .3em .8em; font-size: .9rem; flex: none; }
.actions { display: grid; gap: .6rem; margin-top: 1.1rem; }
.actions button { width: 100%; }
label { display: block; font-size: .85rem; color: var(--muted); margin-bottom: .3rem; }
.field { margin-bottom: .9rem; }
.row { display: grid; grid-template-columns: 1fr 1fr; grid-template-rows: auto auto auto; column-gap: .75rem; }
/* Expiry and CVC line up whatever their labels' length: each field spans the row's three tracks
   (label, input, error) as a subgrid, and a label that wraps pushes both inputs down alike. */
.row .field { display: grid; grid-row: span 3; grid-template-rows: subgrid; row-gap: 0; align-items: end; }
.row .field .field-error { align-self: start; }
.field-error { color: var(--bad); font-size: .85rem; margin: .3rem 0 0; overflow-wrap: anywhere; }
.notice { border-radius: 8px; padding: .7rem .85rem; margin-bottom: 1rem; font-size: .95rem; overflow-wrap: anywhere; }
.notice.error { background: var(--bad-bg); color: var(--bad); }
.notice.info { background: var(--warn-bg); color: var(--warn); }
.notice.ok { background: var(--ok-bg); color: var(--ok); }
details.test-cards { margin-top: 1rem; font-size: .9rem; }
details.test-cards summary { cursor: pointer; color: var(--accent); }
table { border-collapse: collapse; width: 100%; margin-top: .5rem; }
th, td { text-align: left; padding: .35rem .4rem; border-bottom: 1px solid var(--line); vertical-align: top; }
th { font-size: .8rem; color: var(--muted); font-weight: 600; }
.result { text-align: center; }
.result .icon { display: block; margin: 0 auto .4rem; width: 3rem; height: 3rem; }
.icon.waiting { color: var(--accent); } .icon.confirmed { color: var(--ok); } .icon.canceled { color: var(--bad); } .icon.expired { color: var(--warn); }
.sbp-qr { margin: 0 0 1rem; text-align: center; }
.sbp-qr .qr { width: min(100%, 240px); margin: 0 auto; background: #fff; }
.sbp-qr .qr svg { display: block; width: 100%; height: auto; }
.sbp-qr figcaption { font-size: .85rem; margin-top: .4rem; }
.sbp-qr figcaption .muted { display: block; font-size: .8rem; margin-top: .2rem; }
.small { font-size: .85rem; }
.card-number { white-space: nowrap; }
/* A run a line must not break inside ("(ММ/ГГ)", "3-D Secure", a card number): see components/unbroken.tsx. */
.nowrap { white-space: nowrap; }
details.test-cards summary { min-height: 44px; display: flex; align-items: center; }
.result .reason { color: var(--muted); overflow-wrap: anywhere; }
.back { display: inline-block; margin-top: 1rem; font-weight: 600; overflow-wrap: anywhere; }
.langs .lang-form { display: inline; margin: 0; }
.langs button.link { background: none; border: 0; padding: 0; min-height: 0; color: #cfe0ff; text-decoration: underline; font-size: inherit; }
footer { color: var(--muted); font-size: .8rem; text-align: center; margin-top: 1.25rem; overflow-wrap: anywhere; }
@media (max-width: 420px) { .number { font-size: 1.05rem; letter-spacing: 0; } }
@media (max-width: 380px) { .amount { font-size: 1.75rem; } .panel { padding: 1rem; } }
`;
