/** The languages of the payment page, the result page and the dashboard. */
export const LANGS = ['ru', 'en'] as const;
export type Lang = (typeof LANGS)[number];

/** The BCP 47 locale each language formats numbers and dates with. */
export const LOCALES: Record<Lang, string> = { ru: 'ru-RU', en: 'en-GB' };

export function isLang(value: unknown): value is Lang {
  return typeof value === 'string' && (LANGS as readonly string[]).includes(value);
}

/**
 * The first supported language of an Accept-Language header, by its q-values
 * ("en-US,en;q=0.9,ru;q=0.8" → en); undefined when it names none.
 */
export function fromAcceptLanguage(header: string | undefined): Lang | undefined {
  if (!header) return undefined;
  const ranked = header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q\s*=\s*([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
      return { lang: tag.trim().toLowerCase().split('-')[0] ?? '', q: q === undefined ? 1 : Number(q), index };
    })
    .filter((entry) => entry.q > 0 && Number.isFinite(entry.q))
    .sort((a, b) => b.q - a.q || a.index - b.index);
  return ranked.map((entry) => entry.lang).find(isLang);
}

/** `?lang=` when it is ru or en, then Accept-Language, then the sandbox's default (`--page-lang`). */
export function pickLang(query: string | undefined, acceptLanguage: string | undefined, fallback: Lang): Lang {
  if (isLang(query)) return query;
  return fromAcceptLanguage(acceptLanguage) ?? fallback;
}
