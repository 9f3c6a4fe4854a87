import { distance } from 'fastest-levenshtein';

/**
 * The known key closest to `key` by edit distance (case ignored), when it is close enough to
 * be a typo: at most 2 edits, or a third of the key's length for long keys. `tokn` -> `token`.
 */
export function nearestKey(key: string, known: readonly string[]): string | undefined {
  const lower = key.toLowerCase();
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of known) {
    const d = distance(lower, candidate.toLowerCase());
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  const limit = Math.max(2, Math.floor(lower.length / 3));
  return best !== undefined && bestDistance > 0 && bestDistance <= limit ? best : undefined;
}
