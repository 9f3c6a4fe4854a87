import { DASHBOARD_EN } from '../../i18n/dashboard-en.js';
import { DASHBOARD_RU } from '../../i18n/dashboard-ru.js';
import type { Lang } from '../../i18n/lang.js';
import { translator } from '../../i18n/translator.js';
import { DocumentHead } from './document-head.js';

/**
 * GET /go-live (and /w/<name>/go-live): the go-live checklist page, in the dashboard's look. Like
 * the dashboard it holds no data (it is served without the admin token); its script reads the
 * checklist from GET /_sandbox/go-live and checks a receiver through POST /_sandbox/go-live.
 */
export function GoLivePage(props: { lang: Lang; base: string; workspace: string }) {
  const { lang, base, workspace } = props;
  const t = translator(lang, lang === 'ru' ? DASHBOARD_RU : DASHBOARD_EN);
  const dashboard = `${base}/_sandbox/${lang === 'ru' ? '?lang=ru' : ''}`;
  return (
    <html lang={lang} data-base={base} data-workspace={workspace}>
      <DocumentHead
        title={`${t('golive.title')} · deposit-sandbox`}
        stylesheets={[`${base}/_sandbox/assets/dashboard.css`, `${base}/go-live/assets/go-live.css`]}
        scripts={[`${base}/go-live/assets/go-live.js`]}
      />
      <body>
        <main>
          <header class="top">
            <h1>deposit-sandbox</h1>
            <span class="muted">{workspace}</span>
            <div class="header-actions">
              <a href={dashboard} data-testid="go-live-dashboard">
                {t('golive.back')}
              </a>
            </div>
          </header>
          <div class="go-live">
            <section class="panel" aria-labelledby="go-live-title">
              <h2 id="go-live-title">{t('golive.title')}</h2>
              <p class="small muted">{t('golive.explain')}</p>
              <form class="go-live-form" data-testid="go-live-form">
                <input aria-label={t('golive.receiver')} placeholder={t('golive.receiver')} type="url" data-testid="go-live-receiver" />
                <input aria-label={t('golive.probe')} placeholder={t('golive.probe')} type="url" data-testid="go-live-probe" />
                <input aria-label={t('golive.merchant')} placeholder={t('golive.merchant')} data-testid="go-live-merchant" />
                <button type="submit" class="primary" data-testid="go-live-run">
                  {t('golive.run')}
                </button>
              </form>
              <div data-testid="go-live-result" aria-live="polite">
                <p class="muted">{t('golive.loading')}</p>
              </div>
            </section>
          </div>
        </main>
      </body>
    </html>
  );
}
