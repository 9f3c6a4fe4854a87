// The A/B method of the bench's paired rows (bench/fuzzer.js, profiles.js, scenario-matching.js,
// sessions.js in process, request by request; package-import.js process by process): two targets
// timed in turns.

/** The middle value of a list of numbers. */
export const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/**
 * Median time of `once(a)` and of `once(b)` (each resolving with its own time: µs per request, or ms of CPU per process), run
 * `count` times each alternating request by request with the order flipped on every pair, after
 * a tenth as many untimed turns to warm both up; so the store's growth, GC and other load on the
 * machine hit both alike.
 */
export async function alternate(once, a, b, count) {
  for (let i = 0; i < count / 10; i++) {
    await once(a);
    await once(b);
  }
  const times = { a: [], b: [] };
  for (let i = 0; i < count; i++) {
    if (i % 2 === 0) {
      times.a.push(await once(a));
      times.b.push(await once(b));
    } else {
      times.b.push(await once(b));
      times.a.push(await once(a));
    }
  }
  return { a: median(times.a), b: median(times.b) };
}
