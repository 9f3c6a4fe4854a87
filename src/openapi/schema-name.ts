import type { z } from 'zod';

/** The name a shape has in /openapi.json's components (`#/components/schemas/<id>`), and what it is. */
export interface SchemaName {
  id: string;
  description?: string;
}

const names = new Map<z.ZodType, SchemaName>();
const ids = new Set<string>();

/**
 * Names `schema` in /openapi.json's components and returns it: where a route's body or answer, or
 * a part of one, is this schema, the document writes a `$ref` to its component; a shape without a
 * name is written in place. Name a shape where it is defined, or where the route that answers it
 * is declared.
 */
export function named<T extends z.ZodType>(id: string, schema: T, description?: string): T {
  const known = names.get(schema);
  if (known?.id === id) return schema;
  if (known || ids.has(id)) throw new Error(`openapi: ${known ? `a schema named ${known.id} named again ${id}` : `two schemas named ${id}`}`);
  names.set(schema, description === undefined ? { id } : { id, description });
  ids.add(id);
  return schema;
}

/** The name of `schema`, or undefined when it has none. */
export function nameOf(schema: unknown): SchemaName | undefined {
  return names.get(schema as z.ZodType);
}

/** Every named schema, in the order they were named. */
export function namedSchemas(): Array<[z.ZodType, SchemaName]> {
  return [...names];
}
