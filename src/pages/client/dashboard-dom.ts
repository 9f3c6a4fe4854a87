import type { DashboardI18n } from './dashboard-i18n.js';

/**
 * DOM helpers of the dashboard script. Text always goes in as text nodes (never parsed
 * as markup), so data from trades cannot become markup.
 */
export function dashboardDom(i18n: DashboardI18n) {
  type Child = Node | string | number | null | undefined | false;
  type Attrs = Record<string, string | number | boolean | undefined | ((event: Event) => void)>;

  /** An element with attributes (functions become event listeners) and text or element children. */
  function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
    const element = document.createElement(tag);
    for (const [name, value] of Object.entries(attrs)) {
      if (value === undefined || value === false) continue;
      if (typeof value === 'function') element.addEventListener(name.replace(/^on/, ''), value);
      else if (name === 'testid') element.setAttribute('data-testid', String(value));
      else element.setAttribute(name, value === true ? '' : String(value));
    }
    append(element, ...children);
    return element;
  }

  function append(parent: Node, ...children: Child[]): void {
    for (const child of children) {
      if (child === null || child === undefined || child === false) continue;
      parent.appendChild(typeof child === 'object' ? child : document.createTextNode(String(child)));
    }
  }

  /** Replaces an element's children. */
  function fill(parent: Element, ...children: Child[]): void {
    parent.replaceChildren();
    append(parent, ...children);
  }

  function byTestId<T extends HTMLElement = HTMLElement>(id: string): T {
    const element = document.querySelector<T>(`[data-testid="${id}"]`);
    if (!element) throw new Error(`dashboard: no element [data-testid="${id}"]`);
    return element;
  }

  /**
   * A coloured badge for a trade state (`data-state`) or a callback status (`data-status`): the
   * attribute and the class carry the API's value, the text is the page's word for it.
   */
  function badge(value: string, testid?: string, kind: 'state' | 'callbackStatus' = 'state'): HTMLSpanElement {
    const attribute = kind === 'state' ? 'data-state' : 'data-status';
    return h('span', { class: `badge ${value.replace(/[^a-z_]/g, '')}`, testid, [attribute]: value }, i18n.word(kind, value));
  }

  /** "2025-01-02T10:11:12.345Z" → "02/01/2025, 10:11:12 UTC" (en) or "02.01.2025, 10:11:12 UTC" (ru): sandbox time, zone named. */
  function time(iso: string | null | undefined): HTMLElement | string {
    if (!iso) return '—';
    const date = new Date(iso);
    if (Number.isNaN(date.getTime())) return String(iso);
    return h('time', { datetime: date.toISOString(), title: date.toISOString() }, i18n.dateTime(iso));
  }

  return { h, append, fill, byTestId, badge, time, rubles: i18n.money, t: i18n.t, word: i18n.word, said: i18n.said, explain: i18n.explain, lang: i18n.lang };
}

export type DashboardDom = ReturnType<typeof dashboardDom>;
