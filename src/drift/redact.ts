/** A value never to be shown, and what stands in its place. */
export interface Masked {
  value: string;
  mask: string;
}

/**
 * A function that replaces every occurrence of the masked values in a text (as written, as
 * JSON escapes it, as a URL encodes it) by their masks: every output of drift and profile
 * detect (the table, --json, --junit, --write-profile, errors) goes through one. Values shorter
 * than 4 characters are left: masking them would garble the text and hides nothing.
 *
 * @example
 * const redact = redactor([{ value: 's3cret-value', mask: '<secret>' }]);
 * redact('signed with s3cret-value') // 'signed with <secret>'
 */
export function redactor(masked: readonly Masked[]): (text: string) => string {
  const pairs: Array<[string, string]> = [];
  for (const { value, mask } of masked) {
    if (value.length < 4) continue;
    for (const form of new Set([value, JSON.stringify(value).slice(1, -1), encodeURIComponent(value)])) pairs.push([form, mask]);
  }
  // Longest first: a secret that holds a token is masked whole.
  pairs.sort((a, b) => b[0].length - a[0].length);
  return (text) => pairs.reduce((out, [form, mask]) => out.split(form).join(mask), text);
}
