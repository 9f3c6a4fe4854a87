/** The longest name (merchant id, field, code, trade, order) the report keeps, in UTF-16 code units. */
export const MAX_NAME = 100;

// C0 and C1 control characters, DEL, the line and paragraph separators, and the noncharacters U+FFFE/U+FFFF.
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are exactly the characters that must not reach a report
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\ufffe\uffff]/g;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * A name from a request as the report keeps it: cut to MAX_NAME code units (marked with "…";
 * never in the middle of a surrogate pair), control characters written out as `\u0000`, lone
 * surrogates replaced by U+FFFD. So JSON, Markdown and JUnit get the same safe, short text, and
 * 3,000 distinct 30 KB keys cannot make a 90 MB report.
 */
export function printable(name: string): string {
  let text = name;
  let cut = false;
  if (text.length > MAX_NAME) {
    const end = /[\ud800-\udbff]/.test(text[MAX_NAME - 1] ?? '') ? MAX_NAME - 1 : MAX_NAME;
    text = text.slice(0, end);
    cut = true;
  }
  text = text.replace(LONE_SURROGATE, '\ufffd').replace(CONTROL, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return cut ? `${text}…` : text;
}
