/**
 * The zod parse options for a file read once per start (a provider profile, a scenario file, the
 * fixtures): no compiled fast path. zod generates code for an object schema at its first parse,
 * which pays off over the many parses of a request schema and costs more than it saves over one.
 * The result and the issues are the same either way.
 */
export const PARSED_ONCE = { jitless: true } as const;
