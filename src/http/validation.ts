import type { ValidationTargets } from 'hono';
import { zValidator } from '@hono/zod-validator';
import { z } from 'zod';
import { formatPath } from '../config/issues.js';
import { errors, type SandboxError } from './errors.js';
import { JSON_BODY } from './body.js';

/** Turns zod issues into the sandbox's 422 envelope: one detail per field, a message that teaches. */
export function validationError(error: { issues: readonly z.core.$ZodIssue[] }): SandboxError {
  const details = error.issues.map((issue) => ({ field: formatPath(issue.path) || 'body', message: issue.message }));
  const first = details[0];
  const message =
    details.length === 1 && first
      ? first.message
      : `${details.length} problems in fields ${[...new Set(details.map((d) => d.field))].join(', ')}; see details for each. The first: ${first?.message ?? ''}`;
  return errors.validation(message, details);
}

/**
 * The parsers z.compile generated, by schema: the schemas are the modules' own constants, the same
 * for every sandbox of the process, and a generated parser holds no data of a request or a tenant.
 */
const compiledSchemas = new WeakMap<z.ZodType, z.ZodType>();

function compiledOnce<T extends z.ZodType>(schema: T): T {
  let compiled = compiledSchemas.get(schema) as T | undefined;
  if (!compiled) {
    compiled = z.compile(schema);
    compiledSchemas.set(schema, compiled);
  }
  return compiled;
}

/**
 * zValidator whose failures go through the one error format. The schemas have no async
 * refinements, so they are parsed synchronously (zod's async parse costs more per request),
 * by the schema as `z.compile` builds it: zod generates the parser of its fast path from the
 * schema once, and a value the fast path refuses goes to the ordinary parser, so a refused
 * request gets the same issues, word for word.
 *
 * `validate('json', schema)` checks the body `jsonBody()` (src/http/body.ts) read and parsed
 * in front of it, so a body is read, bounded and parsed in one place, once, and a malformed
 * one is always answered in jsonBody's words.
 */
export function validate<T extends z.ZodType, Target extends keyof ValidationTargets>(target: Target, schema: T) {
  // Compiled on the first request it checks, not at start-up (generating every parser up front would
  // slow start-up), and once per process: every app (each sandbox, each workspace) checks with it.
  const parser = (): T => compiledOnce(schema);
  const validator = zValidator(
    target,
    schema,
    (result) => {
      if (!result.success) throw validationError(result.error);
    },
    // `as never`: the option's result type is conditional on T, which TypeScript cannot resolve here.
    { validationFunction: (_schema, value) => parser().safeParse(value) as never },
  );
  if (target !== 'json') return validator;
  const parsedBody: typeof validator = async (c, next) => {
    const body = c.get(JSON_BODY);
    if (body === undefined) throw new Error("validate('json', ...) needs jsonBody() in front of it: it checks the body jsonBody() parsed");
    const result = parser().safeParse(body);
    if (!result.success) throw validationError(result.error);
    c.req.addValidatedData('json', result.data as never);
    await next();
  };
  return parsedBody;
}
