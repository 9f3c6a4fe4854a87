import { z } from 'zod';
import { COVERAGE_ROW_IDS } from '../report/coverage-rows.js';
import { GO_LIVE_OWN_ROW_IDS } from './go-live-own-rows.js';

/** Schedules the go-live fuzzer tries when not told: fewer than check-callback's 100, so the checklist comes back in seconds. */
export const GO_LIVE_RUNS = 50;

/**
 * The rows of the go-live checklist: every coverage row (src/report/coverage-rows.ts), then the
 * two of its own (./go-live-own-rows.ts).
 */
export const GO_LIVE_ROW_IDS = [...COVERAGE_ROW_IDS, ...GO_LIVE_OWN_ROW_IDS] as const;
export type GoLiveRowId = (typeof GO_LIVE_ROW_IDS)[number];

/** met: shown handled; not_met: nothing showed it yet; wrong: answered wrong somewhere. */
export const GO_LIVE_STATUSES = ['met', 'not_met', 'wrong'] as const;
export type GoLiveStatus = (typeof GO_LIVE_STATUSES)[number];

/** Where a row's status comes from. */
export const GO_LIVE_SOURCES = ['coverage', 'check-callback', 'fuzzer', 'probe'] as const;
export type GoLiveSource = (typeof GO_LIVE_SOURCES)[number];

export const goLiveEvidenceSchema = z.object({
  source: z.enum(GO_LIVE_SOURCES),
  status: z.enum(GO_LIVE_STATUSES),
  /** What that source saw, in one line (the coverage row's status and detail, a check case's verdict, a fuzzer violation's cause). */
  detail: z.string(),
});
export type GoLiveEvidence = z.infer<typeof goLiveEvidenceSchema>;

export const goLiveRowSchema = z.object({
  id: z.enum(GO_LIVE_ROW_IDS),
  /** The provider behaviour, in a few words. */
  title: z.string(),
  status: z.enum(GO_LIVE_STATUSES),
  /** Every source that said something of the row, wrong first. */
  evidence: z.array(goLiveEvidenceSchema),
  /** For a row not met: the one command, order prefix or flag that exercises it (the ways not counted as mistakes first). */
  exercise: z.string().optional(),
});
export type GoLiveRow = z.infer<typeof goLiveRowSchema>;

/** GET and POST /_sandbox/go-live: one merchant's checklist. */
export const goLiveChecklistSchema = z.object({
  merchant: z.string(),
  name: z.string().optional(),
  /** True when every row is met. */
  ready: z.boolean(),
  counts: z.object({ met: z.number().int(), not_met: z.number().int(), wrong: z.number().int() }),
  /** Whether the sandbox itself reads a balance probe (serve --probe): its callback rows were judged on credits too. */
  sandbox_probe: z.boolean(),
  /** The receiver checked and how, when one was given. */
  receiver: z
    .object({
      url: z.string(),
      /** The balance probe the fuzzer read, when one was given. */
      probe: z.string().optional(),
      /** The fuzzer's seed: the same seed sends the same schedules (check-callback --seed). */
      seed: z.number().int(),
      runs: z.number().int(),
    })
    .optional(),
  /** Other merchants the coverage holds (each has a checklist of its own: ask with merchant). */
  other_merchants: z.array(z.string()),
  rows: z.array(goLiveRowSchema),
});
export type GoLiveChecklist = z.infer<typeof goLiveChecklistSchema>;
