import { nearestKey } from '../config/nearest-key.js';
import { ERROR_BODY_PLACEHOLDERS, isPlaceholder, PLACEHOLDER, renderErrorBody, type ErrorBodyValues } from './render-error-body.js';

/** One thing wrong with an `errors.body` template. */
export interface ErrorBodyProblem {
  message: string;
  /** The placeholder as written (`{{mesage}}`), when the problem is one: the loader points at it. */
  placeholder?: string;
}

/** Values that put every kind of character a message can hold through the template. */
const SAMPLE: ErrorBodyValues = {
  status: 422,
  code: 'validation_failed',
  message: 'amount_cents must be a "whole" number\nof kopecks',
  details: [{ field: 'amount_cents', message: 'not an integer' }],
};

const LIST = ERROR_BODY_PLACEHOLDERS.map((name) => `{{${name}}}`).join(', ');

/**
 * What is wrong with an `errors.body` template: a `{{name}}` that is no placeholder, or a
 * template whose result is not JSON (checked on a sample error). An empty list when it is usable.
 *
 * @example
 * checkErrorBody('{"error":{{mesage}}}')
 * // [{ message: '{{mesage}} is no placeholder; did you mean {{message}}? ...', placeholder: '{{mesage}}' }]
 */
export function checkErrorBody(template: string): ErrorBodyProblem[] {
  const problems: ErrorBodyProblem[] = [];
  for (const match of template.matchAll(PLACEHOLDER)) {
    const name = match[1] ?? '';
    if (isPlaceholder(name)) continue;
    const near = nearestKey(name, ERROR_BODY_PLACEHOLDERS);
    problems.push({
      placeholder: match[0],
      message: `${match[0]} is no placeholder${near ? `; did you mean {{${near}}}?` : '.'} The placeholders are ${LIST}`,
    });
  }
  if (problems.length > 0) return problems;
  const sample = renderErrorBody(template, SAMPLE);
  try {
    JSON.parse(sample);
  } catch (error) {
    const quoted = /"\{\{\s*[a-z]+\s*\}\}"/.exec(template);
    const hint = quoted
      ? ` A placeholder is replaced by a JSON value, quotes included: write ${quoted[0].slice(1, -1)}, not ${quoted[0]}.`
      : ' Placeholders are replaced by JSON values (a string with its quotes, details as a list).';
    problems.push({ message: `is not JSON once filled in with a sample error (${(error as Error).message}).${hint}` });
  }
  return problems;
}
