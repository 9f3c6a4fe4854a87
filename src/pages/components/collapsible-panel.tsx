import type { Child } from 'hono/jsx';

/**
 * A dashboard panel QA opens when needed (the receiver check, the integration report, the
 * scenarios): a `<details>` closed by default, its heading the `<summary>`, so the page stays
 * short on a phone and each panel is one Tab and Enter away. The script (client/dashboard-sections.ts)
 * keeps the panels a user opened open on the next visit.
 */
export function CollapsiblePanel(props: { name: string; title: string; class: string; testid?: string; children: Child }) {
  const { name, title } = props;
  return (
    <section class={`panel ${props.class}`} data-testid={props.testid} aria-labelledby={`${name}-title`}>
      <details class="section" data-section={name} data-testid={`${name}-section`}>
        <summary data-testid={`${name}-open`}>
          <h2 id={`${name}-title`}>{title}</h2>
        </summary>
        {props.children}
      </details>
    </section>
  );
}
