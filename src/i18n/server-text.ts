import type { Lang } from './lang.js';
import type { TextParams } from './coded-text.js';
import { NESTED_PARAMS } from './nested-params.js';
import { SERVER_TEXTS_RU } from './server-texts-ru.js';
import { translator } from './translator.js';

/** A line as the admin API sends it: the English text, and its code and parameters when it has them. */
export interface SentLine {
  text: string;
  code?: string | undefined;
  params?: TextParams | undefined;
}

/**
 * How a page in `lang` says a line the server sent: in English, the server's own text; in
 * Russian, the code's text in server-texts-ru.ts with the line's parameters, or the server's
 * text when the line has no code or one this page does not know (an admin's own note, a newer
 * server's code, a merchant's scenario note).
 */
export function serverText(lang: Lang): (line: SentLine) => string {
  if (lang === 'en') return (line) => line.text;
  const t = translator(lang, SERVER_TEXTS_RU);
  const known = (code: unknown): code is keyof typeof SERVER_TEXTS_RU => typeof code === 'string' && Object.hasOwn(SERVER_TEXTS_RU, code);
  return ({ text, code, params = {} }) => {
    if (!known(code)) return text;
    // An inner line (NESTED_PARAMS) is said first, with the same parameters; one this page does not know leaves the server's text.
    const said: Record<string, TextParams[string]> = { ...params };
    for (const name of NESTED_PARAMS) {
      const inner = params[name];
      if (inner === undefined) continue;
      if (!known(inner)) return text;
      said[name] = t(inner, params);
    }
    return t(code, said);
  };
}
