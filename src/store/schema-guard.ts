import type { z } from 'zod';

export type Guard = (value: unknown) => boolean;

interface Def {
  type: string;
  shape?: Record<string, z.ZodType>;
  catchall?: z.ZodType;
  innerType?: z.ZodType;
  element?: z.ZodType;
  keyType?: z.ZodType;
  valueType?: z.ZodType;
  entries?: Record<string, unknown>;
  values?: readonly unknown[];
  checks?: ReadonlyArray<{ _zod: { def: { check: string; format?: string } } }>;
}

const NEVER: Guard = () => false;

/** Schemas with a refinement the guard cannot read, and the allocation-free check that stands for each (guardedBy()). */
const own = new WeakMap<z.ZodType, Guard>();

/**
 * Gives `schema` the check guardFor() uses for it: for a schema with a refinement (which guardFor
 * cannot see), a check that passes exactly what the schema accepts unchanged, or less.
 */
export function guardedBy<T extends z.ZodType>(schema: T, guard: Guard): T {
  own.set(schema, guard);
  return schema;
}

/**
 * Compiles a zod schema into a check that allocates nothing: true only when the schema
 * accepts the value and would return it unchanged (no unknown keys to strip, no defaults
 * or transforms). Anything the guard does not know is "false", so callers then run the
 * schema itself, which decides and explains. Used to load large stores: parsing 100,000
 * rows through zod copies every one of them.
 */
export function guardFor(schema: z.ZodType): Guard {
  const given = own.get(schema);
  if (given) return given;
  const def = (schema as unknown as { _zod: { def: Def } })._zod.def;
  switch (def.type) {
    case 'string':
      return def.checks?.length ? NEVER : (value) => typeof value === 'string';
    case 'number': {
      if (!def.checks?.length) return (value) => typeof value === 'number' && Number.isFinite(value);
      const formats = def.checks.map((check) => (check._zod.def.check === 'number_format' ? check._zod.def.format : undefined));
      if (formats.length === 1 && formats[0] === 'safeint') return (value) => typeof value === 'number' && Number.isSafeInteger(value);
      return NEVER;
    }
    case 'boolean':
      return (value) => typeof value === 'boolean';
    case 'null':
      return (value) => value === null;
    case 'unknown':
    case 'any':
      return () => true;
    case 'literal': {
      const values = def.values ?? [];
      return (value) => values.includes(value);
    }
    case 'enum': {
      const values = new Set(Object.values(def.entries ?? {}));
      return (value) => values.has(value);
    }
    case 'optional': {
      const inner = guardFor(def.innerType as z.ZodType);
      return (value) => value === undefined || inner(value);
    }
    case 'nullable': {
      const inner = guardFor(def.innerType as z.ZodType);
      return (value) => value === null || inner(value);
    }
    case 'array': {
      const element = guardFor(def.element as z.ZodType);
      return (value) => Array.isArray(value) && value.every((item) => element(item));
    }
    case 'record': {
      const key = guardFor(def.keyType as z.ZodType);
      const item = guardFor(def.valueType as z.ZodType);
      return (value) => isPlainObject(value) && Object.entries(value).every(([k, v]) => key(k) && item(v));
    }
    case 'object':
      return objectGuard(def);
    default:
      return NEVER;
  }
}

function objectGuard(def: Def): Guard {
  const fields = Object.entries(def.shape ?? {}).map(([key, field]) => [key, guardFor(field)] as const);
  const known = new Set(fields.map(([key]) => key));
  const loose = (def.catchall as unknown as { _zod?: { def: Def } } | undefined)?._zod?.def.type === 'unknown';
  return (value) => {
    if (!isPlainObject(value)) return false;
    for (const [key, check] of fields) if (!check(value[key])) return false;
    if (!loose) for (const key in value) if (!known.has(key)) return false;
    return true;
  };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
