import { LOCALES, type Lang } from './lang.js';

/**
 * One message: a text with `{name}` placeholders, or one text per plural category of the
 * language (Intl.PluralRules decides which, from the `count` parameter).
 */
export type Message = string | Readonly<Partial<Record<Intl.LDMLPluralRule, string>> & { other: string }>;
export type Catalogue = Readonly<Record<string, Message>>;
/** A parameter: text, a number (`count` picks the plural form and is formatted), or a list ("any_bank or nspk", said with Intl.ListFormat). */
export type Params = Readonly<Record<string, string | number | readonly string[]>>;

/**
 * `t(key, params)` over one catalogue: plural forms by Intl.PluralRules, then `{name}` filled in (lists joined with "or" in the language).
 * The Intl formatters are made on first use: making them loads the locale's data, which a CLI
 * command would otherwise pay at start-up, since the module that holds the English server texts
 * makes a translator as it loads.
 */
export function translator<C extends Catalogue>(lang: Lang, catalogue: C) {
  let intl: { plurals: Intl.PluralRules; numbers: Intl.NumberFormat; lists: Intl.ListFormat } | undefined;
  const formatters = () => {
    intl ??= {
      plurals: new Intl.PluralRules(LOCALES[lang]),
      numbers: new Intl.NumberFormat(LOCALES[lang]),
      lists: new Intl.ListFormat(LOCALES[lang], { type: 'disjunction' }),
    };
    return intl;
  };
  return function t(key: keyof C & string, params: Params = {}): string {
    const message: Message | undefined = catalogue[key];
    if (message === undefined) return key;
    const count = params['count'];
    const text = typeof message === 'string' ? message : (message[formatters().plurals.select(typeof count === 'number' ? count : 0)] ?? message.other);
    return text.replace(/\{(\w+)\}/g, (whole, name: string) => {
      const value = params[name];
      if (value === undefined) return whole;
      if (typeof value === 'object') return formatters().lists.format(value);
      return typeof value === 'number' && name === 'count' ? formatters().numbers.format(value) : String(value);
    });
  };
}

export type Translate<C extends Catalogue> = ReturnType<typeof translator<C>>;
