/**
 * What a replay to a sandbox compares: a recorded answer and the answer the fresh workspace gave
 * to the same request, once what is bound to differ is set aside. Values the sandbox draws (trade
 * ids, requisites, its address) are paired as they appear (Substitutions), so a recording made
 * without --seed, or on another port, still replays without a difference; a wall-clock duration is
 * never compared; times are compared only when the recorded clock was manual (a real clock's move on).
 */

/** Recorded values and the values the replay got in their place, both ways. */
export class Substitutions {
  readonly #toLive = new Map<string, string>();
  readonly #toRecorded = new Map<string, string>();

  /** Pairs a recorded value with the replay's (ignored when equal, empty, or the value is paired already). */
  pair(recorded: string, live: string): void {
    if (recorded === live || recorded === '' || this.#toLive.has(recorded)) return;
    this.#toLive.set(recorded, live);
    this.#toRecorded.set(live, recorded);
  }

  /** `text` with each recorded value replaced by the replay's, longest first. */
  toLive(text: string): string {
    return replaceAll(text, this.#toLive);
  }

  /** `text` with each value of the replay replaced by the recorded one, longest first. */
  toRecorded(text: string): string {
    return replaceAll(text, this.#toRecorded);
  }

  /**
   * True once a create or build drew other values than the recording's (the sandbox was not
   * started with the recording's --seed, or the workspace has another name): requisites, drawn
   * from a small pool, then cannot be paired by value, and are not compared.
   */
  drawsDiffer = false;

  /** Pairs the id a create or build drew. */
  learnTrade(recorded: string, live: string): void {
    const a = parse(recorded) as { id?: unknown } | undefined;
    const b = parse(live) as { id?: unknown } | undefined;
    if (typeof a?.id === 'string' && typeof b?.id === 'string' && a.id !== b.id) {
      this.pair(a.id, b.id);
      this.drawsDiffer = true;
    }
  }
}

/** The requisites a trade draws (payment_data's and the stored requisites' name, number and bank). */
const DRAWN = /(^|\.)(payment_data|requisites)\.(name|number|bank_name)$/;

/** Every key of `map` in `text` replaced at once (a replaced value is never replaced again), longest first. */
function replaceAll(text: string, map: ReadonlyMap<string, string>): string {
  if (map.size === 0) return text;
  const keys = [...map.keys()].filter((key) => text.includes(key));
  if (keys.length === 0) return text;
  const pattern = new RegExp(
    keys
      .sort((x, y) => y.length - x.length)
      .map((key) => key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('|'),
    'g',
  );
  return text.replace(pattern, (found) => map.get(found) ?? found);
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const ISO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;
/** Members that measure the wall clock: never the same twice. */
const WALL_CLOCK_MEMBERS = new Set(['duration_ms', 'last_used', 'uptime_s', 'uptime', 'exported_at', 'started']);

/** What a comparison sets aside: times under a real clock, requisites drawn otherwise (Substitutions.drawsDiffer). */
export interface CompareOptions {
  readonly realClock: boolean;
  readonly drawsDiffer: boolean;
}

/** The first place two JSON values differ, as `path: recorded X, now Y`; undefined when they are alike. */
function firstDifference(recorded: unknown, live: unknown, path: string, options: CompareOptions): string | undefined {
  const { realClock } = options;
  if (typeof recorded === 'string' && typeof live === 'string' && realClock && ISO_TIME.test(recorded) && ISO_TIME.test(live)) return undefined;
  if (options.drawsDiffer && DRAWN.test(path)) return undefined;
  // JSON kept as text (a callback's body in the callback log): compared member by member too.
  if (typeof recorded === 'string' && typeof live === 'string' && recorded !== live && recorded.startsWith('{') && live.startsWith('{')) {
    const a = parse(recorded);
    const b = parse(live);
    if (a !== undefined && b !== undefined) return firstDifference(a, b, path, options);
  }
  if (Array.isArray(recorded) && Array.isArray(live)) {
    for (let i = 0; i < Math.max(recorded.length, live.length); i++) {
      if (i >= recorded.length) return `${path}[${i}]: not in the recording, now ${short(live[i])}`;
      if (i >= live.length) return `${path}[${i}]: recorded ${short(recorded[i])}, now missing`;
      const found = firstDifference(recorded[i], live[i], `${path}[${i}]`, options);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (recorded !== null && live !== null && typeof recorded === 'object' && typeof live === 'object' && !Array.isArray(recorded) && !Array.isArray(live)) {
    const a = recorded as Record<string, unknown>;
    const b = live as Record<string, unknown>;
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
      if (WALL_CLOCK_MEMBERS.has(key)) continue;
      const at = path ? `${path}.${key}` : key;
      if (!(key in a)) return `${at}: not in the recording, now ${short(b[key])}`;
      if (!(key in b)) return `${at}: recorded ${short(a[key])}, now missing`;
      const found = firstDifference(a[key], b[key], at, options);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  return recorded === live ? undefined : `${path || 'body'}: recorded ${short(recorded)}, now ${short(live)}`;
}

const short = (value: unknown) => {
  const text = JSON.stringify(value) ?? 'undefined';
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
};

/**
 * How a replayed answer differs from the recorded one, or undefined when it does not: the status,
 * then the body, compared as JSON member by member when both are JSON (`realClock`: times are not
 * compared), else as text. `live` is the replay's body already put in the recording's terms
 * (masked, values paired back).
 */
export function compareAnswers(recorded: { status: number; body: string }, live: { status: number; body: string }, options: CompareOptions & { bodies: boolean }): string | undefined {
  if (recorded.status !== live.status) return `status: recorded ${recorded.status}, now ${live.status}`;
  if (!options.bodies) return undefined;
  const a = parse(recorded.body);
  const b = parse(live.body);
  if (a !== undefined && b !== undefined) return firstDifference(a, b, '', options);
  return recorded.body === live.body ? undefined : `body: recorded ${short(recorded.body)}, now ${short(live.body)}`;
}
