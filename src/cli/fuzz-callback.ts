import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fuzzWords } from '../callback-fuzzer/find-violations.js';
import { fuzzSuite } from '../callback-fuzzer/fuzz-junit.js';
import { fuzzReceiver, type FuzzReport } from '../callback-fuzzer/fuzz-receiver.js';
import { formatFuzzHeader, formatFuzzReport } from '../callback-fuzzer/format-fuzz.js';
import { formatNoProbeNote } from '../check-callback/format-check.js';
import { scheduleSchema, type Schedule } from '../callback-fuzzer/schedule.js';
import { describeIssues } from '../config/issues.js';
import { junitXml } from '../junit/junit-xml.js';
import type { Profile } from '../profile/profile-schema.js';
import { isHttpUrl } from '../trades/requests.js';
import { wholeNumber } from './whole-number.js';

export interface FuzzCommandOptions {
  probe?: string;
  seed?: string;
  runs?: string;
  path?: string;
  replay?: string;
  junit?: string;
  json?: boolean;
}

export interface FuzzContext {
  url: string;
  merchant: { id: string; secret: string; rate?: number; name?: string };
  otherSecret: string;
  timeoutMs: number;
  publicUrl?: string;
  /** The provider profile whose callbacks to send (default sandbox). */
  profile?: Profile;
}

/** True when the options ask for the fuzzer rather than the five fixed cases. */
export function wantsFuzzer(options: FuzzCommandOptions): boolean {
  return options.probe !== undefined || options.seed !== undefined || options.runs !== undefined || options.path !== undefined || options.replay !== undefined;
}

function parseReplay(text: string): Schedule {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error(`--replay must be the JSON list a failure prints, e.g. '{"trades":[{"amount_cents":100,"final":"confirmed"}],"steps":[{"trade":0,"kind":"deliver"}]}'; it is not JSON.`);
  }
  const parsed = scheduleSchema.safeParse(value);
  if (!parsed.success) throw new Error(`--replay is not a schedule the fuzzer printed:\n  ${describeIssues(parsed.error).join('\n  ')}`);
  return parsed.data;
}

/**
 * `check-callback <url> --probe <url> [--seed] [--runs] [--junit]`: fuzzes the receiver and prints
 * the transcript (the same for the same seed). Throws an Error for bad arguments and a
 * ProbeError when the probe does not keep its contract.
 */
export async function fuzzCallbackCommand(context: FuzzContext, options: FuzzCommandOptions, write: (text: string) => void): Promise<FuzzReport> {
  if (options.probe !== undefined && !isHttpUrl(options.probe)) {
    throw new Error(`--probe ${JSON.stringify(options.probe)} is not an absolute http(s) URL. Pass your balance probe, e.g. http://127.0.0.1:3000/probe (it answers GET ?order=<order>).`);
  }
  const seed = wholeNumber(options.seed, '--seed', Math.floor(Math.random() * 2 ** 31), 0, 2 ** 31 - 1);
  const runs = wholeNumber(options.runs, '--runs', 100, 1, 1_000_000);
  const schedule = options.replay !== undefined ? parseReplay(options.replay) : undefined;
  if (!options.json) write(formatFuzzHeader(context.merchant.id, seed, schedule ? 1 : runs, options.probe !== undefined, context.merchant.name, context.profile?.name));
  const report = await fuzzReceiver({
    url: context.url,
    merchant: context.merchant,
    otherSecret: context.otherSecret,
    publicUrl: context.publicUrl ?? 'http://127.0.0.1:4242',
    timeoutMs: context.timeoutMs,
    seed,
    runs: schedule ? 1 : runs,
    ...(context.profile !== undefined ? { profile: context.profile } : {}),
    ...(options.probe !== undefined ? { probe: options.probe } : {}),
    ...(options.path !== undefined ? { path: options.path } : {}),
    ...(schedule ? { schedule } : {}),
  });
  const words = context.profile !== undefined ? fuzzWords(context.profile) : undefined;
  write(options.json ? `${JSON.stringify(report, null, 2)}\n` : formatFuzzReport(report, words) + (options.probe === undefined ? formatNoProbeNote(context.url) : ''));
  if (options.junit !== undefined) writeFileSync(resolve(options.junit), junitXml([fuzzSuite(report, context.url, words)], 'deposit-sandbox check-callback'));
  return report;
}
