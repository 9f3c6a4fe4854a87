import { clientFor, type SandboxTarget, withTarget } from '../admin-client/sandbox-target.js';
import { formatChecklist } from '../go-live/format-checklist.js';
import type { GoLiveChecklist } from '../go-live/go-live-schema.js';
import { wholeNumber } from './whole-number.js';

export interface GoLiveOptions {
  merchant?: string;
  receiver?: string;
  probe?: string;
  seed?: string;
  runs?: string;
  json?: boolean;
}

/** How long the sandbox may take to check and fuzz a receiver before the command gives up. */
const GO_LIVE_TIMEOUT_MS = 15 * 60_000;

/**
 * `deposit-sandbox go-live`: asks the running sandbox for the merchant's go-live checklist
 * (GET /_sandbox/go-live, or POST with --receiver so the sandbox checks and fuzzes it) and
 * prints it. Resolves with the checklist; the CLI exits 1 unless it is ready. Throws an Error
 * for bad arguments or a sandbox that cannot answer, naming the sandbox.
 */
export async function goLiveCommand(target: SandboxTarget, options: GoLiveOptions = {}, write: (text: string) => void = (text) => process.stdout.write(text)): Promise<GoLiveChecklist> {
  if (options.probe !== undefined && options.receiver === undefined) {
    throw new Error('--probe is read by the fuzzer go-live runs on your receiver: give --receiver <url> with it, e.g. --receiver http://127.0.0.1:3000/callback --probe http://127.0.0.1:3000/probe.');
  }
  const seed = wholeNumber(options.seed, '--seed', undefined, 0, 2 ** 31 - 1);
  const runs = wholeNumber(options.runs, '--runs', undefined, 1, 1_000);
  const client = clientFor(target, { timeoutMs: GO_LIVE_TIMEOUT_MS });
  let checklist: GoLiveChecklist;
  try {
    checklist = await client.goLive({
      ...(options.merchant !== undefined ? { merchant: options.merchant } : {}),
      ...(options.receiver !== undefined ? { receiver: options.receiver } : {}),
      ...(options.probe !== undefined ? { probe: options.probe } : {}),
      ...(seed !== undefined ? { seed } : {}),
      ...(runs !== undefined ? { runs } : {}),
    });
  } catch (error) {
    throw withTarget(error, target);
  }
  const where = `${target.url.replace(/\/+$/, '')}${target.workspace !== undefined ? ` (workspace ${target.workspace})` : ''}`;
  write(options.json ? `${JSON.stringify(checklist, null, 2)}\n` : formatChecklist(checklist, where));
  return checklist;
}
