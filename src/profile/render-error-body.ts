import type { ErrorDetail } from '../refusals/refusal.js';

/** The placeholders an `errors.body` template may hold, each replaced by the JSON encoding of its value. */
export const ERROR_BODY_PLACEHOLDERS = ['status', 'code', 'message', 'details'] as const;
export type ErrorBodyPlaceholder = (typeof ERROR_BODY_PLACEHOLDERS)[number];

/** What an error answer says, before the profile's template shapes it. */
export interface ErrorBodyValues {
  status: number;
  code: string;
  message: string;
  details: readonly ErrorDetail[];
}

/**
 * `{{name}}`, with optional spaces inside the braces. Valid JSON never holds `{{` outside a
 * string (an object's first key is a string), so a placeholder cannot be confused with the
 * template's own braces.
 */
export const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;

/**
 * The body of an error answer under a profile: the `errors.body` template with every
 * placeholder replaced by the JSON encoding of its value, so a message holding quotes or a
 * newline stays valid JSON. The template was checked when the profile was loaded
 * (checkErrorBody); a name that is no placeholder is left as it is.
 *
 * @example
 * renderErrorBody('{"ok":false,"error":{{code}},"text":{{message}}}', { status: 404, code: 'not_found', message: 'No such trade.', details: [] })
 * // '{"ok":false,"error":"not_found","text":"No such trade."}'
 */
export function renderErrorBody(template: string, values: ErrorBodyValues): string {
  return template.replace(PLACEHOLDER, (whole, name: string) => (isPlaceholder(name) ? JSON.stringify(values[name]) : whole));
}

/**
 * True for the name of a placeholder (what stands between the braces).
 *
 * @example
 * isPlaceholder('message') // true; isPlaceholder('mesage') // false
 */
export function isPlaceholder(name: string): name is ErrorBodyPlaceholder {
  return (ERROR_BODY_PLACEHOLDERS as readonly string[]).includes(name);
}
