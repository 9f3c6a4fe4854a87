import { formatDateTime, formatMoney } from '../format.js';
import { DASHBOARD_EN, type DashboardKey } from '../../i18n/dashboard-en.js';
import { DASHBOARD_RU } from '../../i18n/dashboard-ru.js';
import { isLang } from '../../i18n/lang.js';
import { serverText } from '../../i18n/server-text.js';
import { translator } from '../../i18n/translator.js';
import { dashboardSaid } from './dashboard-said.js';

/** The dashboard's language (the `<html lang>` the server rendered, English by default), its texts and formats. */
export function dashboardI18n() {
  const asked = document.documentElement.lang;
  const lang = isLang(asked) ? asked : 'en';
  const catalogue = lang === 'ru' ? DASHBOARD_RU : DASHBOARD_EN;
  const t = translator(lang, catalogue);
  return {
    lang,
    t,
    /** A trade state, trade type, callback status, history cause, attempt kind or check verdict in the page's language (the API's own word in English; unknown values as they are). */
    word: (kind: 'state' | 'type' | 'callbackStatus' | 'cause' | 'attempt' | 'verdict', value: string): string => {
      const key = `${kind}.${value}`;
      return key in catalogue ? t(key as DashboardKey) : value;
    },
    /** A line the server sent with a code (a history note, a report detail): in the page's language when its code is known, else as sent. */
    said: serverText(lang),
    /** The check's advice, the provider's refusals and the clock field's refusal, which come without codes: said again from their fields in Russian. */
    explain: dashboardSaid(lang),
    money: (cents: number) => formatMoney(cents, lang),
    dateTime: (iso: string | number) => formatDateTime(iso, lang),
  };
}

export type DashboardI18n = ReturnType<typeof dashboardI18n>;

/** The path prefix the sandbox serves this dashboard under ("" when unprefixed), rendered as `<html data-base>`. */
export function basePath(): string {
  return document.documentElement.dataset['base'] ?? '';
}
