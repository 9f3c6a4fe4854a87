import { checkErrorBody } from '../profile/check-error-body.js';
import { renderErrorBody } from '../profile/render-error-body.js';
import { jsonShape } from './json-shape.js';

const CODE_MARK = '\u0001code';

/**
 * Where an error body made from this `errors.body` template holds the error's code, as a key path
 * (`error.code` in the sandbox's envelope), or undefined when the template has no `{{code}}`.
 *
 * @example
 * errorCodePath('{"ok":false,"error":{{code}}}') // 'error'
 */
export function errorCodePath(template: string): string | undefined {
  let body: unknown;
  try {
    body = JSON.parse(renderErrorBody(template, { status: 422, code: CODE_MARK, message: 'message', details: [] }));
  } catch {
    return undefined;
  }
  for (const [path, node] of jsonShape(body)) if (node.value === CODE_MARK) return path;
  return undefined;
}

type Placeholder = 'status' | 'code' | 'message' | 'details';

const KEYS: Record<Placeholder, RegExp> = {
  status: /^(status|status_?code|http_?status|statuscode)$/i,
  code: /^(code|error_?code|errorcode|type|reason|error)$/i,
  message: /^(message|error_?message|errormessage|description|detail|msg|text|error_description)$/i,
  details: /^(details|errors|fields|violations|invalid_params)$/i,
};

const IDENTIFIER = /^[A-Za-z][A-Za-z0-9_.:-]{0,63}$/;

/**
 * An `errors.body` template that renders the shape of `body`, a provider's error answer with
 * `status`: the value that is the status becomes `{{status}}`, the code (a key such as `code` or
 * `error` holding an identifier) `{{code}}`, the message (a key such as `message`, else the
 * longest string with a space) `{{message}}`, the list of problems `{{details}}`; every other
 * value stays as it is. Undefined when the body is not a JSON object, or the template would not
 * pass the profile loader's check.
 *
 * @example
 * inferErrorTemplate({ success: false, error: { code: 'E42', text: 'Bad amount' } }, 422)
 * // '{"success":false,"error":{"code":{{code}},"text":{{message}}}}'
 */
export function inferErrorTemplate(body: unknown, status: number): string | undefined {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const found = new Map<Placeholder, { holder: Record<string, unknown>; key: string }>();
  const candidates: Array<{ holder: Record<string, unknown>; key: string; value: unknown }> = [];
  const walk = (node: Record<string, unknown>, depth: number) => {
    for (const [key, value] of Object.entries(node)) {
      candidates.push({ holder: node, key, value });
      if (value !== null && typeof value === 'object' && !Array.isArray(value) && depth < 6) walk(value as Record<string, unknown>, depth + 1);
    }
  };
  walk(body as Record<string, unknown>, 0);
  const fits: Record<Placeholder, (value: unknown) => boolean> = {
    status: (value) => value === status || value === String(status),
    code: (value) => typeof value === 'string' && IDENTIFIER.test(value),
    message: (value) => typeof value === 'string' && value.trim() !== '',
    details: (value) => Array.isArray(value),
  };
  const taken = (holder: Record<string, unknown>, key: string) => [...found.values()].some((place) => place.holder === holder && place.key === key);
  for (const name of ['status', 'details', 'code', 'message'] as const) {
    const byKey = candidates.find((c) => KEYS[name].test(c.key) && fits[name](c.value) && !taken(c.holder, c.key));
    if (byKey) found.set(name, byKey);
  }
  if (!found.has('message')) {
    const longest = candidates.filter((c) => typeof c.value === 'string' && c.value.includes(' ') && !taken(c.holder, c.key)).sort((a, b) => String(b.value).length - String(a.value).length)[0];
    if (longest) found.set('message', longest);
  }
  const copy = structuredClone(body) as Record<string, unknown>;
  const marks = new Map<string, Placeholder>();
  for (const [name, place] of found) {
    const mark = `\u0001${name}\u0001`;
    marks.set(mark, name);
    setIn(copy, body as Record<string, unknown>, place.holder, place.key, mark);
  }
  let template = JSON.stringify(copy);
  for (const [mark, name] of marks) template = template.replace(JSON.stringify(mark), `{{${name}}}`);
  return checkErrorBody(template).length === 0 ? template : undefined;
}

/** Sets `key` of the copy of `holder` (found by walking `original` and `copy` side by side). */
function setIn(copy: Record<string, unknown>, original: Record<string, unknown>, holder: Record<string, unknown>, key: string, value: unknown): boolean {
  if (original === holder) {
    copy[key] = value;
    return true;
  }
  for (const [name, inner] of Object.entries(original)) {
    const innerCopy = copy[name];
    if (inner !== null && typeof inner === 'object' && !Array.isArray(inner) && innerCopy !== null && typeof innerCopy === 'object') {
      if (setIn(innerCopy as Record<string, unknown>, inner as Record<string, unknown>, holder, key, value)) return true;
    }
  }
  return false;
}
