/**
 * DOM helpers of the dashboard script. Like dashboardClient, this runs in the browser as
 * source text, so it must not use anything outside its own body. Text always goes in as
 * text nodes (never innerHTML), so data from trades cannot become markup.
 */
export function dashboardDom() {
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

  function badge(value: string, testid?: string): HTMLSpanElement {
    return h('span', { class: `badge ${value.replace(/[^a-z_]/g, '')}`, testid }, value);
  }

  /** "2025-01-02T10:11:12.345Z" → "2025-01-02 10:11:12" (sandbox time is UTC). */
  function time(iso: string | null | undefined): HTMLElement | string {
    if (!iso) return '—';
    const date = new Date(iso);
    if (Number.isNaN(date.getTime())) return String(iso);
    return h('time', { datetime: date.toISOString(), title: date.toISOString() }, date.toISOString().replace('T', ' ').slice(0, 19));
  }

  /** 31250 → "312,50 ₽" (the payment page's format). */
  function rubles(cents: number): string {
    const abs = Math.abs(Math.trunc(cents));
    const whole = String(Math.floor(abs / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, ' ');
    return `${cents < 0 ? '-' : ''}${whole},${String(abs % 100).padStart(2, '0')} ₽`;
  }

  return { h, append, fill, byTestId, badge, time, rubles };
}

export type DashboardDom = ReturnType<typeof dashboardDom>;
