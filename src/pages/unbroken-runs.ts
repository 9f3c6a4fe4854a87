/**
 * The runs of a page text that a line must not break inside: a short parenthesis ("(ММ/ГГ)",
 * "(3-D Secure)", whose slash, hyphen or space the browser would otherwise break at), the names
 * "3-D Secure" and "deposit-sandbox", and a grouped or masked card number ("4000 0000 0000 3220",
 * "4000 •••• 3220"). A longer parenthesis (a sentence's aside) may wrap, or it could push a
 * phone's page sideways.
 */
const UNBROKEN = /\([^()\n]{1,16}\)|3-D Secure|deposit-sandbox|\d{4}(?: (?:\d{4}|••••)){1,3}/g;

export interface TextRun {
  text: string;
  /** Whether the run is rendered where no line may break (white-space: nowrap). */
  keep: boolean;
}

/**
 * `text` cut into runs, in order, that join back into it: "Срок действия (ММ/ГГ)" →
 * [{ text: "Срок действия ", keep: false }, { text: "(ММ/ГГ)", keep: true }]. Plain data, so the
 * server's JSX and a test read the same cut.
 */
export function unbrokenRuns(text: string): TextRun[] {
  const runs: TextRun[] = [];
  let at = 0;
  for (const match of text.matchAll(UNBROKEN)) {
    if (match.index > at) runs.push({ text: text.slice(at, match.index), keep: false });
    runs.push({ text: match[0], keep: true });
    at = match.index + match[0].length;
  }
  if (at < text.length) runs.push({ text: text.slice(at), keep: false });
  return runs;
}
