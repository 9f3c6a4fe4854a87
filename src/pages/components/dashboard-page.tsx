import { isTradeState, TRADE_STATES, TRADE_TYPES } from '../../trades/trade.js';
import { DASHBOARD_EN } from '../../i18n/dashboard-en.js';
import { DASHBOARD_RU } from '../../i18n/dashboard-ru.js';
import { LANGS, type Lang } from '../../i18n/lang.js';
import { translator } from '../../i18n/translator.js';
import { CollapsiblePanel } from './collapsible-panel.js';
import { ReportPanel } from './report-panel.js';
import { DocumentHead } from './document-head.js';

const LANG_NAMES = { ru: 'Русский', en: 'English' } as const;

/**
 * GET /_sandbox/: the dashboard shell in English (default) or Russian (`?lang=ru`). It holds
 * no data (it is served without the admin token); the script fills it from the admin API.
 */
/** `states`: every state the trades filter offers, in lifecycle order (the provider profile's intermediate states among them); the sandbox's own when left out. */
export function DashboardPage(props: { lang: Lang; base: string; workspace: string; states?: readonly string[] }) {
  const { lang, base, workspace, states = TRADE_STATES } = props;
  const t = translator(lang, lang === 'ru' ? DASHBOARD_RU : DASHBOARD_EN);
  return (
    <html lang={lang} data-base={base} data-workspace={workspace}>
      <DocumentHead title={t('page.title')} stylesheets={[`${base}/_sandbox/assets/dashboard.css`]} scripts={[`${base}/_sandbox/assets/dashboard.js`]} />
      <body>
        <main>
          <section class="panel login" data-testid="login" aria-labelledby="login-title" hidden>
            <h1 id="login-title">{t('login.title')}</h1>
            <form data-testid="login-form">
              <label for="token">{t('login.token')}</label>
              <input id="token" type="password" autocomplete="off" data-testid="token-input" />
              <p class="error-text" data-testid="login-error" role="alert"></p>
              <button type="submit" class="primary" data-testid="token-submit">
                {t('login.continue')}
              </button>
              <p class="muted">{t('login.kept')}</p>
            </form>
          </section>
          <div data-testid="app">
            <header class="top">
              <h1>deposit-sandbox</h1>
              <form class="workspace" data-testid="workspace-form">
                <label for="workspace-input">{t('workspace.label')}</label>
                <input id="workspace-input" list="workspace-names" data-testid="workspace-input" />
                <datalist id="workspace-names"></datalist>
                <button type="submit" data-testid="workspace-open">
                  {t('workspace.open')}
                </button>
              </form>
              <div class="clock" data-testid="clock">
                <span>
                  {t('clock.label')} <b data-testid="clock-mode">…</b>
                </span>
                <span>
                  {t('clock.now')} <b data-testid="clock-now">…</b>
                </span>
                <span>
                  {t('clock.pending')} <b data-testid="clock-pending">…</b>
                </span>
                <span>
                  {t('clock.next')} <b data-testid="clock-next">…</b>
                </span>
                <form data-testid="advance-form">
                  <input aria-label={t('clock.advanceBy')} placeholder={t('clock.placeholder')} data-testid="advance-input" />
                  <button type="submit" data-testid="advance">
                    {t('clock.advance')}
                  </button>
                </form>
              </div>
              <div class="header-actions">
                <nav class="langs" aria-label={t('lang.label')}>
                  {LANGS.map((code) =>
                    code === lang ? (
                      <span lang={code} aria-current="true" data-testid={`lang-${code}`}>
                        {LANG_NAMES[code]}
                      </span>
                    ) : (
                      <a lang={code} hreflang={code} href={`?lang=${code}`} data-testid={`lang-${code}`}>
                        {LANG_NAMES[code]}
                      </a>
                    ),
                  )}
                </nav>
                <a href={`${base}/go-live${lang === 'ru' ? '?lang=ru' : ''}`} data-testid="go-live-link">
                  {t('golive.link')}
                </a>
                <button type="button" data-testid="signout" hidden>
                  {t('header.forget')}
                </button>
                <button type="button" data-testid="session-download" title={t('header.sessionHint')}>
                  {t('header.session')}
                </button>
                <button type="button" class="danger" data-testid="reset">
                  {t('header.reset')}
                </button>
              </div>
            </header>
            <div class="message" data-testid="message" role="status" hidden></div>
            <div class="layout">
              <section class="panel new-panel" aria-labelledby="new-title">
                <h2 id="new-title">{t('new.title')}</h2>
                <form class="new-trade" data-testid="new-trade" novalidate>
                  <div class="field">
                    <label for="new-merchant">{t('new.merchant')}</label>
                    <select id="new-merchant" data-testid="new-merchant"></select>
                  </div>
                  <div class="field">
                    <label for="new-type">{t('new.type')}</label>
                    <select id="new-type" data-testid="new-type">
                      {TRADE_TYPES.map((type) => (
                        <option value={type}>{t(`new.type.${type}`)}</option>
                      ))}
                    </select>
                  </div>
                  <div class="field">
                    <label for="new-amount">{t('new.amount')}</label>
                    <input id="new-amount" data-testid="new-amount" inputmode="decimal" placeholder="312.50" value="312.50" />
                  </div>
                  <div class="field">
                    <label for="new-order">{t('new.order')}</label>
                    <input id="new-order" data-testid="new-order" autocomplete="off" />
                  </div>
                  <div class="field">
                    <label for="new-callback">{t('new.callback')}</label>
                    <input id="new-callback" data-testid="new-callback" type="url" placeholder="http://127.0.0.1:3000/deposit-callback" />
                  </div>
                  <div class="field">
                    <label for="new-return">{t('new.return')}</label>
                    <input id="new-return" data-testid="new-return" type="url" placeholder="http://127.0.0.1:3000/back" />
                  </div>
                  <div class="field">
                    <label for="new-scenario">{t('new.scenario')}</label>
                    <select id="new-scenario" data-testid="new-scenario">
                      <option value="">{t('new.noScenario')}</option>
                    </select>
                  </div>
                  <div class="field submit">
                    <button type="submit" class="primary" data-testid="new-submit">
                      {t('new.submit')}
                    </button>
                  </div>
                </form>
                <p class="small muted" data-testid="new-hint"></p>
                <div data-testid="new-result" aria-live="polite"></div>
              </section>
              <section class="panel trades-panel" aria-labelledby="trades-title">
                {/* The count ("38 trades") is the heading once the trades are loaded. */}
                <h2 id="trades-title" data-testid="trades-total">
                  {t('trades.title')}
                </h2>
                <form class="filters" data-testid="filters">
                  <select aria-label={t('trades.filterMerchant')} data-testid="filter-merchant">
                    <option value="">{t('trades.anyMerchant')}</option>
                  </select>
                  <select aria-label={t('trades.filterState')} data-testid="filter-state">
                    <option value="">{t('trades.anyState')}</option>
                    {states.map((state) => (
                      // A profile's intermediate state has no word of its own: its name.
                      <option value={state}>{isTradeState(state) ? t(`state.${state}`) : state}</option>
                    ))}
                  </select>
                  <input aria-label={t('trades.filterOrder')} placeholder={t('trades.orderPlaceholder')} data-testid="filter-order" />
                </form>
                <div class="scroll" tabindex={0}>
                  <table class="trades">
                    <thead>
                      <tr>
                        <th scope="col" class="wide-only">
                          {t('col.created')}
                        </th>
                        <th scope="col">{t('col.order')}</th>
                        <th scope="col" class="wide-only">
                          {t('col.merchant')}
                        </th>
                        <th scope="col" class="wide-only">
                          {t('col.type')}
                        </th>
                        <th scope="col" class="num">
                          {t('col.amount')}
                        </th>
                        <th scope="col">{t('col.state')}</th>
                      </tr>
                    </thead>
                    <tbody data-testid="trades"></tbody>
                  </table>
                </div>
              </section>
              <section class="panel detail-panel" data-testid="detail" aria-live="polite"></section>
              <CollapsiblePanel name="check" title={t('check.title')} class="check-panel">
                <form class="check-form" data-testid="check-form">
                  <input aria-label={t('check.url')} placeholder="http://127.0.0.1:3000/deposit-callback" data-testid="check-url" />
                  <input aria-label={t('check.merchant')} placeholder={`${t('check.merchant')} (${t('check.firstMerchant')})`} data-testid="check-merchant" />
                  <button type="submit" data-testid="check-run">
                    {t('check.run')}
                  </button>
                </form>
                <p class="small muted">{t('check.explain')}</p>
                <div data-testid="check-result"></div>
              </CollapsiblePanel>
              <ReportPanel t={t} />
              <CollapsiblePanel name="scenarios" title={t('scenarios.title')} class="scenarios-panel">
                <div data-testid="scenarios">
                  <p class="muted">…</p>
                </div>
              </CollapsiblePanel>
            </div>
          </div>
        </main>
      </body>
    </html>
  );
}
