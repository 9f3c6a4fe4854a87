import type { CreatedTrade, Difference } from './drift-types.js';
import type { Adoption } from './write-profile.js';

/** How one probe went: the same on both sides, different, or not sent (and why). */
export interface ProbeOutcome {
  probe: string;
  what: string;
  result: 'same' | 'different' | 'skipped';
  /** For a skipped probe: why it was not sent or not compared. */
  why?: string;
}

/** What a drift run found. `--json` prints it. */
export interface DriftReport {
  /** The target's base URL. */
  target: string;
  /** The profile the sandbox followed (and the probes were signed under), by name. */
  profile: string;
  /** How many probes were compared. */
  probes: number;
  differences: Difference[];
  /** How many requests went to the target (at most 40). */
  requests: number;
  /** The probes not compared, with why. */
  skipped: Array<{ probe: string; why: string }>;
  /** The trades the run created on the target. */
  trades: CreatedTrade[];
  /** How valid requests were authenticated at the target: the profile's signing, or the one the target accepted instead. */
  signing: { used: string; label: string; accepted_instead?: boolean };
  /** What the run cannot learn from outside. */
  cannot_see: string[];
  /** What --write-profile takes over, each with the probe that showed it. */
  adoptions: Adoption[];
  /** Differences no profile key can say (a state name, a format, a status...). */
  not_adoptable: string[];
  /** Present when the run stopped before the end: at which probe and why. */
  stopped?: { probe: string; why: string };
  /** Every probe in order, for JUnit and the summary. */
  outcomes: ProbeOutcome[];
}
