import { z } from 'zod';

/**
 * The path parameters of a route declaration, each a string with its description for
 * /openapi.json (`{ id: 'The trade id.' }`); `uuid` names the ones the document says are UUIDs
 * (the route itself answers any other value, with its own 404).
 */
export function pathParams<const K extends string>(descriptions: Record<K, string>, uuid: readonly K[] = []) {
  const shape = {} as Record<K, z.ZodString>;
  for (const name of Object.keys(descriptions) as K[]) shape[name] = z.string().meta(uuid.includes(name) ? { description: descriptions[name], format: 'uuid' } : { description: descriptions[name] });
  return z.object(shape);
}
