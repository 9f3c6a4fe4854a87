import type { Child } from 'hono/jsx';
import { LANGS } from '../../i18n/lang.js';
import type { PageContext } from '../page-context.js';
import { Unbroken } from './unbroken.js';
import { DocumentHead } from './document-head.js';

const LANG_NAMES = { ru: 'Русский', en: 'English' } as const;

/**
 * The HTML document around a payment-side page: language, viewport meta, the page's own stylesheet and script.
 * `postSwitch`: the page answers a POST (the 3-D Secure step), so the language switch posts the
 * step again (the challenged card, `action=lang`) in the other language instead of linking to `?lang=`.
 */
export function Layout(props: { title: string; ctx: PageContext; children: Child; switcher?: boolean; postSwitch?: { action: string; card: string } }) {
  const { postSwitch } = props;
  const { ctx } = props;
  return (
    <html lang={ctx.lang} data-base={ctx.base}>
      <DocumentHead title={props.title} stylesheets={[`${ctx.base}/assets/pay.css`]} scripts={[`${ctx.base}/assets/pay.js`]} />
      <body>
        <header class="sandbox-banner">
          <p>
            <strong>{ctx.t('banner.strong')}</strong> <Unbroken text={ctx.t('banner.text')} />
          </p>
          {props.switcher !== false && (
            <nav class="langs" aria-label={ctx.t('lang.label')}>
              {LANGS.map((lang) =>
                lang === ctx.lang ? (
                  <span lang={lang} aria-current="true" data-testid={`lang-${lang}`}>
                    {LANG_NAMES[lang]}
                  </span>
                ) : postSwitch ? (
                  // A form of its own: a button of the step's form would become its default button (Enter in the code field).
                  <form method="post" action={`${postSwitch.action}?lang=${lang}`} class="lang-form">
                    <input type="hidden" name="card" value={postSwitch.card} />
                    <button type="submit" name="action" value="lang" lang={lang} class="link" data-testid={`lang-${lang}`}>
                      {LANG_NAMES[lang]}
                    </button>
                  </form>
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
