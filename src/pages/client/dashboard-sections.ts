const KEY = 'deposit-sandbox.open-sections';

/**
 * The dashboard's collapsible panels (`<details data-section>`, closed as served): the ones QA
 * opened open again on the next visit, from localStorage (a browser that refuses storage keeps
 * them closed).
 */
export function dashboardSections(): void {
  const panels = [...document.querySelectorAll<HTMLDetailsElement>('details[data-section]')];
  let open: string[] = [];
  try {
    const stored: unknown = JSON.parse(localStorage.getItem(KEY) ?? '[]');
    if (Array.isArray(stored)) open = stored.filter((name): name is string => typeof name === 'string');
  } catch {
    open = [];
  }
  for (const panel of panels) {
    if (open.includes(panel.dataset['section'] ?? '')) panel.open = true;
    panel.addEventListener('toggle', () => {
      const names = panels.filter((each) => each.open).map((each) => each.dataset['section'] ?? '');
      try {
        localStorage.setItem(KEY, JSON.stringify(names));
      } catch {
        // Storage refused (a private window's quota): the panels are only not remembered.
      }
    });
  }
}
