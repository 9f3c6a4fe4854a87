import { SANDBOX_FUZZ_WORDS, type FuzzWords } from './find-violations.js';
import type { FuzzReport } from './fuzz-receiver.js';
import type { Delivery } from './run-schedule.js';
import type { Schedule } from './schedule.js';

/** How each kind of request went out, with the profile's signature header. */
const how = (words: FuzzWords): Record<Delivery['kind'], string> => ({
  deliver: 'delivered',
  replay: 'replayed (new event id)',
  wrong_signature: `forged: wrong ${words.header}`,
  no_signature: `forged: no ${words.header}`,
  other_merchant: "forged: another merchant's signature",
});

/**
 * The first lines of a fuzzing run (no URL, port or time: the transcript depends on the seed
 * only); a provider profile other than `sandbox` is named.
 */
export function formatFuzzHeader(merchant: string, seed: number, runs: number, probe: boolean, name?: string, profile?: string): string {
  const under = profile !== undefined && profile !== 'sandbox' ? `, under the provider profile ${profile}` : '';
  return `Fuzzing the callback receiver as merchant ${merchant}${name ? ` (${name})` : ''}${under}: seed ${seed}, ${runs} schedules, ${probe ? 'balance probe on' : 'no balance probe (answers only)'}\n\n`;
}

/** The schedule as the list a failure prints: one numbered line per callback sent (`words`: the profile's terms, fuzzWords()). */
export function formatSchedule(schedule: Schedule, deliveries: Delivery[], words: FuzzWords = SANDBOX_FUZZ_WORDS): string {
  const HOW = how(words);
  const trades = schedule.trades.map((t, i) => `  T${i + 1}: amount_cents ${t.amount_cents}, ${t.via ? `passes ${t.via.join(', ')}, ` : ''}ends ${t.final}\n`).join('');
  const lines = deliveries.map((d, i) => {
    const what = d.abandoned
      ? 'abandoned at the callback timeout'
      : d.retry
        ? 'retried while attempt 1 still runs'
        : d.attempt > 1 && d.kind === 'deliver'
          ? 'delivered again (same event)'
          : HOW[d.kind];
    // A group's requests were all on the wire before any answer: "at once" with the others' numbers.
    const together = d.group ? ` [at once with ${groupMates(i, d.group)}]` : '';
    const got = d.abandoned ? 'not awaited' : d.status === null ? 'no answer' : d.unacknowledged ? `${d.status}, not acknowledged` : String(d.status);
    return `  ${String(i + 1).padStart(2)}. T${d.trade + 1} ${d.state.padEnd(9)} event ${d.event} attempt ${d.attempt}  ${(what + together).padEnd(36)} -> ${got}\n`;
  });
  return trades + lines.join('');
}

/** The line numbers of the other requests of a group, e.g. "2" or "2, 3". */
function groupMates(line: number, group: { index: number; size: number }): string {
  const first = line - group.index + 1;
  return Array.from({ length: group.size }, (_, k) => first + k + 1)
    .filter((n) => n !== line + 1)
    .join(', ');
}

/** The whole transcript after the header: the verdict, and for a failure the shrunk schedule, its cause and how to replay it. */
export function formatFuzzReport(report: FuzzReport, words: FuzzWords = SANDBOX_FUZZ_WORDS): string {
  if (report.passed) {
    return `No violation in ${report.schedules} schedules${report.probe ? '' : ' in the answers'}.\n`;
  }
  const failure = report.failure!;
  const [headline, ...more] = failure.violations;
  let text = `FLAGGED: ${headline!.cause}.\n\n`;
  text += `Found after ${failure.failedAfter} schedule${failure.failedAfter === 1 ? '' : 's'}, shrunk ${failure.shrinks} time${failure.shrinks === 1 ? '' : 's'} to:\n`;
  text += formatSchedule(failure.schedule, failure.run.deliveries, words);
  if (failure.run.probes) {
    text += failure.run.probes.map((p, i) => `  probe T${i + 1}: state ${p.state ?? 'null'}, credited_cents ${p.credited_cents}\n`).join('');
  }
  if (more.length > 0) text += `\nAlso in this schedule:\n${more.map((v) => `  - ${v.cause}.\n`).join('')}`;
  text += `\nReplay it: --seed ${report.seed} --path ${failure.path}\n`;
  text += `or send exactly this list: --replay '${JSON.stringify(failure.schedule)}'\n`;
  return text;
}
