type Plain = Record<string, unknown>;

const isPlain = (value: unknown): value is Plain => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * `overlay` laid over `base`: maps are merged key by key, anything else (a list included)
 * replaces the base's value whole, and an undefined value leaves the base's. Neither is changed.
 *
 * @example
 * mergeProfile({ callbacks: { acknowledge: '2xx', retries: [1000] } }, { callbacks: { retries: [] } })
 * // { callbacks: { acknowledge: '2xx', retries: [] } }
 */
export function mergeProfile(base: Plain, overlay: Plain): Plain {
  const out: Plain = { ...base };
  for (const [key, value] of Object.entries(overlay)) {
    if (value === undefined) continue;
    const under = out[key];
    out[key] = isPlain(under) && isPlain(value) ? mergeProfile(under, value) : value;
  }
  return out;
}
