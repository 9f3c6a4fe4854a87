import { type CodedText, codedText } from '../i18n/coded-text.js';
import type { CoverageRowId } from './coverage-rows.js';
import { type CreatedTrade, isLostAnswer } from './lost-answers.js';
import { POLLING_READS, PollingWatch } from './polling-watch.js';
import { printable } from './printable.js';
import type { IntegrationReport, MerchantCoverage, MerchantMistakes, ReportNote } from './report-schema.js';
import type { SavedReport } from './saved-report.js';
import { type CallbackMistake, newTally, restoredTally, savedTally, type Tally } from './merchant-tally.js';

/** Merchant ids beyond this many are counted together, so made-up ids cannot grow memory. */
const MAX_MERCHANTS = 1_000;
const OTHERS = '(other merchant ids)';
/** Trades noted for sustained polling, per merchant. */
const MAX_NOTED_TRADES = 20;
/** Distinct 401 causes and distinct (field, code) pairs of 422s kept per merchant; more are counted together. */
const MAX_CAUSES = 20;
const MAX_FIELDS = 50;
const MORE = '(more)';
/** Deleted workspaces whose counts are kept by name; more are kept together under one name. */
const MAX_DELETED = 1_000;
const MORE_DELETED = '(more deleted workspaces)';
/** Trades created from the dashboard remembered (their callbacks are QA's, not the merchant's). */
const MAX_QA_TRADES = 10_000;

/** A provider request the sandbox refused with 401 or 422, as the refusal hook saw it. */
export interface Refused {
  status: 401 | 422;
  /** The error code. */
  code: string;
  /** The fields named in the error's details (422). */
  fields: readonly string[];
  /** The order of a create or build request, when its body named one. */
  order: string | undefined;
  /** True for create and build (false for get). */
  create: boolean;
  /** A scenario forced this answer: the merchant asked for it, so it is no mistake (it is still met, for the coverage). */
  forced: boolean;
}

const bump = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);

/**
 * Counts the merchant's mistakes and integration coverage per merchant. Knows nothing of
 * HTTP: it is fed by the create and read hooks (src/report/count-creates.ts, count-reads.ts),
 * the refusal hook (src/report/count-refusal.ts), the callback dispatcher's events (watch-callbacks.ts)
 * and the payment page's state changes (watch-payments.ts). Kept in memory; a sandbox keeps its
 * counts in its store too (src/report/keep-report.ts), told of each change by `onChange`.
 */
export class MistakeCounter {
  readonly #tallies = new Map<string, Tally>();
  readonly #polling = new PollingWatch();
  readonly #qaTrades = new Set<string>();
  #listener: (() => void) | undefined;
  /** Called when a count or a coverage mark changes (never on the common create or read, which change nothing). */
  readonly #changed = (): void => this.#listener?.();

  /** Tells `listener` of every change of the counts (one listener: the sandbox's store keeper). */
  onChange(listener: () => void): void {
    this.#listener = listener;
  }

  /** The last merchant asked for and its tally: the create path asks for the same few merchants again and again. */
  #lastMerchant: string | undefined;
  #lastTally: Tally | undefined;

  #tally(merchant: string): Tally {
    if (merchant === this.#lastMerchant && this.#lastTally !== undefined) return this.#lastTally;
    const tally = this.#find(merchant);
    this.#lastMerchant = merchant;
    this.#lastTally = tally;
    return tally;
  }

  #find(merchant: string): Tally {
    const id = printable(merchant).toLowerCase();
    let tally = this.#tallies.get(id);
    if (!tally) {
      if (this.#tallies.size >= MAX_MERCHANTS && id !== OTHERS) return this.#find(OTHERS);
      tally = newTally(this.#changed);
      this.#tallies.set(id, tally);
    }
    return tally;
  }

  /** A provider request refused with 401 or 422: a 401 counts by its code, a 422 by each field of its details and its code. */
  refused(merchant: string, refusal: Refused): void {
    const tally = this.#tally(merchant);
    if (refusal.status === 401) {
      if (refusal.create) tally.coverage.mark('create.refused_401', 'seen');
      if (!refusal.forced) {
        const cause = printable(refusal.code);
        bump(tally.unauthorized, tally.unauthorized.has(cause) || tally.unauthorized.size < MAX_CAUSES ? cause : MORE);
        this.#changed();
      }
      return;
    }
    if (refusal.code === 'duplicate_order') {
      tally.coverage.mark('create.duplicate_order', 'seen');
      // Retrying a create whose answer was lost with the same order is the right thing to do.
      if (refusal.order !== undefined && tally.lost.duplicate(tally.coverage, refusal.order)) return;
      if (!refusal.forced) {
        tally.duplicate_orders++;
        this.#changed();
      }
      return;
    }
    if (refusal.create) tally.coverage.mark('create.refused_422', 'seen');
    if (refusal.forced) return;
    this.#changed();
    const code = printable(refusal.code);
    for (const name of new Set(refusal.fields.length > 0 ? refusal.fields : ['body'])) {
      const field = printable(name);
      let codes = tally.invalid.get(field);
      const known = codes?.has(code) === true;
      if (!known && tally.pairs >= MAX_FIELDS) {
        codes = tally.invalid.get(MORE) ?? new Map();
        tally.invalid.set(MORE, codes);
        bump(codes, MORE);
        continue;
      }
      if (codes === undefined) {
        codes = new Map();
        tally.invalid.set(field, codes);
      }
      if (!known) tally.pairs++;
      bump(codes, code);
    }
  }

  /**
   * A create or build the sandbox accepted (201). It runs on every successful create, so it is
   * kept to a flag and a length check; true when `createdDetails` must follow (a lost answer is
   * concerned: the create's own, or one still waiting for its retry).
   */
  created(merchant: string, order: string, scenario: string | undefined): boolean {
    const tally = this.#tally(merchant);
    if (!tally.accepted) {
      tally.accepted = true;
      tally.coverage.mark('create.accepted', 'seen');
    }
    return tally.lost.waiting || isLostAnswer(order, scenario);
  }

  /** The details of a create `created` asked for. */
  createdDetails(merchant: string, trade: CreatedTrade): void {
    const { coverage, lost } = this.#tally(merchant);
    lost.created(coverage, trade);
  }

  /**
   * A successful read of a trade at `now` (wall-clock ms: the sandbox clock may stand still).
   * Reading a trade is never a mistake; more than POLLING_READS reads of one trade within a
   * minute is noted as advice (src/report/polling-watch.ts).
   */
  read(merchant: string, trade: string, now: number): void {
    if (!this.#polling.read(trade, now)) return;
    const { polled } = this.#tally(merchant);
    const key = printable(trade).toLowerCase();
    if (polled.has(key) || polled.size < MAX_NOTED_TRADES) {
      bump(polled, key);
      this.#changed();
    }
  }

  /** A callback attempt that did not count as delivered, or a forged copy that was accepted. */
  callback(merchant: string, mistake: CallbackMistake): void {
    this.#tally(merchant).callbacks[mistake]++;
    this.#changed();
  }

  /** A 2xx answer that the provider profile's acknowledgement rule did not count, and the rule's reason. */
  wrongAcknowledgement(merchant: string, reason: string): void {
    const { acknowledgements } = this.#tally(merchant);
    acknowledgements.count++;
    acknowledgements.reason = reason;
    this.#changed();
  }

  /** A callback failed after its last retry. */
  neverAcknowledged(merchant: string): void {
    this.#tally(merchant).callbacks.never_acknowledged++;
    this.#changed();
  }

  /** A coverage row met (src/report/coverage-rows.ts): it only moves up, seen < handled < wrong. */
  cover(merchant: string, row: CoverageRowId, status: 'seen' | 'handled' | 'wrong', trade?: string, detail?: string | CodedText): void {
    this.#tally(merchant).coverage.mark(row, status, trade, detail);
  }

  /** A coverage row seen for `trade`, with a detail that replaces the one of an earlier seen for that trade (CoverageTally.seenAgain). */
  coverSeen(merchant: string, row: CoverageRowId, trade: string, detail: string | CodedText): void {
    this.#tally(merchant).coverage.seenAgain(row, trade, detail);
  }

  /** A trade created from the dashboard's forms: QA's own, so its callbacks and payments are not the merchant's. */
  qaTrade(id: string): void {
    this.#qaTrades.add(id.toLowerCase());
    if (this.#qaTrades.size > MAX_QA_TRADES) this.#qaTrades.delete(this.#qaTrades.values().next().value as string);
  }

  isQaTrade(id: string): boolean {
    return this.#qaTrades.size > 0 && this.#qaTrades.has(id.toLowerCase());
  }

  /** Forgets the last read time of every trade (after a reset of the sandbox's data). */
  forgetReads(): void {
    this.#polling.forget();
  }

  /** Names of merchants learned before a workspace (and its merchant directory) went away. */
  readonly #names = new Map<string, string>();
  /** The counters of deleted workspaces, by name, kept until the process exits (on the root's counter). */
  readonly #deleted = new Map<string, MistakeCounter>();

  /** Whether anything was counted at all. */
  get empty(): boolean {
    return this.#tallies.size === 0;
  }

  /**
   * Keeps a deleted workspace's counter (on the server's root counter) until the process exits,
   * with its merchants' names. A workspace deleted twice under one name adds up under that name.
   */
  keepDeleted(workspace: string, counter: MistakeCounter, nameOf: (merchant: string) => string | undefined): void {
    if (counter.empty) return;
    for (const merchant of counter.#tallies.keys()) {
      const name = nameOf(merchant);
      if (name !== undefined) counter.#names.set(merchant, name);
    }
    const key = this.#deleted.has(workspace) || this.#deleted.size < MAX_DELETED ? workspace : MORE_DELETED;
    const kept = this.#deleted.get(key);
    if (kept === undefined) this.#deleted.set(key, counter);
    else kept.absorb(counter);
  }

  /** The deleted workspaces' counters kept by keepDeleted, by workspace name. */
  get deleted(): ReadonlyMap<string, MistakeCounter> {
    return this.#deleted;
  }

  /** Adds another counter's counts, names and coverage to this one's. */
  absorb(other: MistakeCounter): void {
    for (const [merchant, name] of other.#names) this.#names.set(merchant, name);
    for (const [merchant, theirs] of other.#tallies) {
      const ours = this.#find(merchant);
      for (const [cause, count] of theirs.unauthorized) ours.unauthorized.set(cause, (ours.unauthorized.get(cause) ?? 0) + count);
      for (const [field, codes] of theirs.invalid) {
        let mine = ours.invalid.get(field);
        if (mine === undefined) {
          mine = new Map();
          ours.invalid.set(field, mine);
        }
        for (const [code, count] of codes) {
          if (!mine.has(code)) ours.pairs++;
          mine.set(code, (mine.get(code) ?? 0) + count);
        }
      }
      ours.duplicate_orders += theirs.duplicate_orders;
      for (const key of Object.keys(ours.callbacks) as Array<keyof Tally['callbacks']>) ours.callbacks[key] += theirs.callbacks[key];
      ours.acknowledgements.count += theirs.acknowledgements.count;
      ours.acknowledgements.reason = theirs.acknowledgements.reason ?? ours.acknowledgements.reason;
      for (const [trade, count] of theirs.polled) ours.polled.set(trade, (ours.polled.get(trade) ?? 0) + count);
      ours.coverage.absorb(theirs.coverage);
      ours.accepted ||= theirs.accepted;
    }
  }

  /** The counts as the store keeps them (src/report/saved-report.ts). */
  saved(): SavedReport {
    return { version: 1, merchants: [...this.#tallies].map(([merchant, tally]) => savedTally(merchant, tally)) };
  }

  /** Takes back counts `saved()` gave (a sandbox's store, at start-up), in place of any counted so far. */
  restore(saved: SavedReport): void {
    this.#tallies.clear();
    this.#lastMerchant = undefined;
    this.#lastTally = undefined;
    for (const kept of saved.merchants) this.#tallies.set(kept.merchant, restoredTally(kept, this.#changed));
  }

  /** Forgets every count and coverage mark (DELETE /_sandbox/report), and says so to the store's keeper. */
  clear(): number {
    const merchants = this.#tallies.size;
    this.restore({ version: 1, merchants: [] });
    this.#polling.forget();
    this.#changed();
    return merchants;
  }

  /** The report: merchants sorted by id, each with its counts; notes and coverage after. */
  report(nameOf: (merchant: string) => string | undefined = () => undefined, workspace?: string): IntegrationReport {
    const sorted = [...this.#tallies.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const nameFor = (merchant: string) => nameOf(merchant) ?? this.#names.get(merchant);
    const named = (merchant: string) => {
      const name = nameFor(merchant);
      return { merchant, ...(name !== undefined ? { name } : {}), ...(workspace !== undefined ? { workspace } : {}) };
    };
    const merchants = sorted
      .map(([merchant, t]): MerchantMistakes => {
        const unauthorized = [...t.unauthorized].sort(([a], [b]) => (a === MORE ? 1 : b === MORE ? -1 : a < b ? -1 : a > b ? 1 : 0)).map(([cause, count]) => ({ cause, count }));
        // By field name, the fields beyond the cap last.
        const invalid = [...t.invalid]
          .sort(([a], [b]) => (a === MORE ? 1 : b === MORE ? -1 : a < b ? -1 : a > b ? 1 : 0))
          .flatMap(([field, codes]) => [...codes].sort().map(([code, count]) => ({ field, code, count })));
        const acknowledgements = t.acknowledgements;
        const callbacks = Object.values(t.callbacks).reduce((sum, n) => sum + n, 0) + acknowledgements.count;
        const total = unauthorized.reduce((s, u) => s + u.count, 0) + invalid.reduce((s, i) => s + i.count, 0) + t.duplicate_orders + callbacks;
        // The acknowledgement count appears once there is one: under the rule 2xx there never is.
        const wrong =
          acknowledgements.count > 0
            ? { wrong_acknowledgement: acknowledgements.count, ...(acknowledgements.reason !== undefined ? { wrong_acknowledgement_reason: acknowledgements.reason } : {}) }
            : {};
        return { ...named(merchant), total, unauthorized, invalid, duplicate_orders: t.duplicate_orders, callbacks: { ...t.callbacks, ...wrong } };
      })
      .filter((m) => m.total > 0);
    const notes = sorted.flatMap(([merchant, t]) =>
      [...t.polled].sort().map(([trade, count]): ReportNote => {
        const detail = codedText(count > 1 ? 'note.sustained_polling.repeated' : 'note.sustained_polling', { reads: POLLING_READS, trade, ...(count > 1 ? { count } : {}) });
        return { ...named(merchant), id: 'sustained_polling', trade, count, detail: detail.text, detail_code: detail.code, detail_params: detail.params };
      }),
    );
    // Coverage for the merchants the sandbox knows (a made-up id has mistakes, not coverage).
    const coverage = sorted.filter(([merchant, t]) => t.coverage.met && nameFor(merchant) !== undefined).map(([merchant, t]): MerchantCoverage => ({ ...named(merchant), rows: t.coverage.rows() }));
    return { total: merchants.reduce((sum, m) => sum + m.total, 0), merchants, notes, coverage };
  }
}
