import type { Context } from 'hono';
import { pickLang, type Lang } from '../i18n/lang.js';
import { PAY_EN } from '../i18n/pay-en.js';
import { PAY_RU } from '../i18n/pay-ru.js';
import { translator, type Translate } from '../i18n/translator.js';

/** What every payment-side page renders with: its language, texts and where its links point. */
export interface PageContext {
  lang: Lang;
  t: Translate<typeof PAY_EN>;
  /**
   * The path prefix the pages are served under ("" for unprefixed paths). Every link, form
   * action and asset URL starts with it, and the browser script reads it from `data-base`.
   */
  base: string;
  /** "?lang=ru" when the language came from the query, so links and redirects keep it; "" otherwise. */
  query: string;
}

const CATALOGUES = { ru: PAY_RU, en: PAY_EN } as const;

/**
 * `?lang=ru|en`, then Accept-Language, then the sandbox's `--page-lang`; `base` is the
 * sandbox's path prefix (`/w/<name>` in a workspace, "" otherwise).
 */
export function pageContext(c: Context, fallback: Lang, base = ''): PageContext {
  const asked = c.req.query('lang');
  const lang = pickLang(asked, c.req.header('accept-language'), fallback);
  return { lang, t: translator(lang, CATALOGUES[lang]), base, query: asked === lang ? `?lang=${lang}` : '' };
}

/** The same context for a language chosen elsewhere (tests, the dashboard). */
export function contextFor(lang: Lang, base = '', query = ''): PageContext {
  return { lang, t: translator(lang, CATALOGUES[lang]), base, query };
}
