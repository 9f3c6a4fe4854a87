import type { Child } from 'hono/jsx';
import { LANGS } from '../i18n/lang.js';
import type { PageContext } from '../page-context.js';

const LANG_NAMES = { ru: 'Русский', en: 'English' } as const;

/** The HTML document around a payment-side page: language, viewport meta, the page's own stylesheet and script. */
export function Layout(props: { title: string; ctx: PageContext; children: Child; switcher?: boolean }) {
  const { ctx } = props;
  return (
    <html lang={ctx.lang} data-base={ctx.base}>
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        <title>{props.title}</title>
        <link rel="icon" href="data:," />
        <link rel="stylesheet" href={`${ctx.base}/assets/pay.css`} />
        <script src={`${ctx.base}/assets/pay.js`} defer></script>
      </head>
      <body>
        <header class="sandbox-banner">
          <p>
            <strong>{ctx.t('banner.strong')}</strong> {ctx.t('banner.text')}
          </p>
          {props.switcher !== false && (
            <nav class="langs" aria-label={ctx.t('lang.label')}>
              {LANGS.map((lang) =>
                lang === ctx.lang ? (
                  <span lang={lang} aria-current="true" data-testid={`lang-${lang}`}>
                    {LANG_NAMES[lang]}
                  </span>
                ) : (
                  <a lang={lang} hreflang={lang} href={`?lang=${lang}`} data-testid={`lang-${lang}`}>
                    {LANG_NAMES[lang]}
                  </a>
                ),
              )}
            </nav>
          )}
        </header>
        <main>{props.children}</main>
      </body>
    </html>
  );
}
