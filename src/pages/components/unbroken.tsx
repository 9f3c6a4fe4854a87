import { unbrokenRuns } from '../unbroken-runs.js';

/**
 * A text of the page's catalogue with its unbreakable runs ("(ММ/ГГ)", "3-D Secure", a card
 * number) each in a `nowrap` span, so a narrow column wraps the text around them, never inside.
 */
export function Unbroken(props: { text: string }) {
  return <>{unbrokenRuns(props.text).map((run) => (run.keep ? <span class="nowrap">{run.text}</span> : run.text))}</>;
}
