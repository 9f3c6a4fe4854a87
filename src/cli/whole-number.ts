/**
 * A flag's whole number from `min` to `max`, or `fallback` when the flag was not given; an Error
 * that names the flag and its range otherwise.
 */
export function wholeNumber<T>(value: string | undefined, flag: string, fallback: T, min: number, max: number): number | T {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || n < min || n > max) throw new Error(`${flag} must be a whole number from ${min} to ${max}; got ${JSON.stringify(value)}.`);
  return n;
}
