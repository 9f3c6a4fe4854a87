import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { DURATION_HINT, parseDuration } from '../clock/duration.js';
import { startCallbackInbox, type CallbackInbox } from '../drift/callback-inbox.js';
import { driftSuite } from '../drift/drift-junit.js';
import type { DriftReport } from '../drift/drift-report.js';
import type { Credentials, DriftEvent } from '../drift/drift-types.js';
import { dryRunText } from '../drift/dry-run.js';
import { formatDrift } from '../drift/format-drift.js';
import { redactor } from '../drift/redact.js';
import { DEFAULT_GAP_MS, runDrift } from '../drift/run-drift.js';
import { writeProfile } from '../drift/write-profile.js';
import { junitXml } from '../junit/junit-xml.js';
import { DEFAULT_PROFILE, loadProfile } from '../profile/load-profile.js';
import { isLoopbackHost } from '../security/loopback.js';
import { isHttpUrl } from '../trades/requests.js';
import { startDriftReference, type RunningReference } from './drift-reference.js';

export interface DriftCommandOptions {
  target?: string;
  merchant?: string;
  token?: string;
  secret?: string;
  otherMerchant?: string;
  otherToken?: string;
  otherSecret?: string;
  profile?: string;
  json?: boolean;
  junit?: string;
  dryRun?: boolean;
  listen?: string;
  callbackUrl?: string;
  callbackWait?: string;
  writeProfile?: string;
  amount?: string;
  gap?: string;
}

/** Where the command writes: the report on `out`, progress and notes on `err`. */
export interface DriftOutput {
  out: (text: string) => void;
  err: (text: string) => void;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DEFAULT_CALLBACK_WAIT_MS = 60_000;

/** The checked flags: credentials, numbers, addresses. Throws an Error that names the flag and what it takes. */
function readOptions(options: DriftCommandOptions) {
  const target = options.target;
  if (target === undefined || !isHttpUrl(target)) {
    throw new Error(`--target must be the provider's base URL, the part before /api/v1, e.g. --target https://test.provider.example; got ${JSON.stringify(target ?? '')}.`);
  }
  const credentials = (merchant: string | undefined, token: string | undefined, secret: string | undefined, prefix: string): Credentials => {
    if (merchant === undefined || !UUID.test(merchant)) throw new Error(`--${prefix}merchant must be the merchant's id at the provider, a UUID; got ${JSON.stringify(merchant ?? '')}.`);
    if (!token) throw new Error(`--${prefix}token is required: the merchant's token at the provider (or set DEPOSIT_SANDBOX_${prefix.toUpperCase().replace('-', '_')}TOKEN).`);
    if (!secret) throw new Error(`--${prefix}secret is required: the merchant's secret at the provider (or set DEPOSIT_SANDBOX_${prefix.toUpperCase().replace('-', '_')}SECRET).`);
    return { merchant, token, secret };
  };
  const own = credentials(options.merchant, options.token, options.secret, '');
  const anyOther = options.otherMerchant ?? options.otherToken ?? options.otherSecret;
  const other = anyOther === undefined ? undefined : credentials(options.otherMerchant, options.otherToken, options.otherSecret, 'other-');
  if (other && other.merchant.toLowerCase() === own.merchant.toLowerCase()) throw new Error('--other-merchant must be another merchant than --merchant.');

  const amount = options.amount === undefined ? 1 : Number(options.amount);
  if (!Number.isInteger(amount) || amount < 1) throw new Error(`--amount must be a whole number of kopecks, 1 or more; got ${JSON.stringify(options.amount)}.`);
  const gapMs = options.gap === undefined ? DEFAULT_GAP_MS : parseDuration(options.gap);
  if (gapMs === undefined) throw new Error(`--gap must be ${DURATION_HINT}; got ${JSON.stringify(options.gap)}.`);
  if (gapMs < DEFAULT_GAP_MS && !isLoopbackHost(new URL(target).hostname)) {
    throw new Error(
      `--gap may go below ${DEFAULT_GAP_MS} ms only for a target on this machine (127.0.0.1, localhost): a provider's test environment gets at least ${DEFAULT_GAP_MS} ms between requests.`,
    );
  }
  const waitMs = options.callbackWait === undefined ? DEFAULT_CALLBACK_WAIT_MS : parseDuration(options.callbackWait);
  if (waitMs === undefined) throw new Error(`--callback-wait must be ${DURATION_HINT}; got ${JSON.stringify(options.callbackWait)}.`);
  if ((options.listen === undefined) !== (options.callbackUrl === undefined)) {
    throw new Error(
      '--listen and --callback-url go together: --listen is where this command receives callbacks (e.g. 127.0.0.1:4300), --callback-url the public address of it the target can reach (e.g. https://abc.tunnel.example/callbacks).',
    );
  }
  if (options.callbackUrl !== undefined && !isHttpUrl(options.callbackUrl))
    throw new Error(`--callback-url must be an absolute http(s) URL the target can reach; got ${JSON.stringify(options.callbackUrl)}.`);
  const listen = options.listen === undefined ? undefined : parseListen(options.listen);
  return { target: target.replace(/\/+$/, ''), own, other, amount, gapMs, waitMs, listen };
}

function parseListen(value: string): { host: string; port: number } {
  const match = /^(?:\[([^\]]+)\]|([^:]+)):(\d+)$/.exec(value.trim());
  const port = Number(match?.[3]);
  if (!match || !Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`--listen must be host:port, e.g. 127.0.0.1:4300 (0.0.0.0:4300 to listen on every interface); got ${JSON.stringify(value)}.`);
  return { host: match[1] ?? match[2] ?? '127.0.0.1', port };
}

/**
 * `deposit-sandbox drift`: sends the probes to the target and to a sandbox in this process with
 * the same profile and credentials, and prints the differences (a table, or --json), with
 * --junit and --write-profile files. Resolves with the exit code: 0 no difference, 1 some,
 * 2 when the run stopped (a non-JSON answer, a redirect, no answer). Every output and error is
 * masked: the token and secrets never appear.
 */
export async function driftCommand(options: DriftCommandOptions, output: DriftOutput = { out: (text) => process.stdout.write(text), err: (text) => process.stderr.write(text) }): Promise<number> {
  const checked = readOptions(options);
  const profileSource = options.profile ?? DEFAULT_PROFILE;
  const profile = loadProfile(profileSource);
  const redact = redactor([
    { value: checked.own.secret, mask: '<secret>' },
    { value: checked.own.token, mask: '<token>' },
    ...(checked.other
      ? [
          { value: checked.other.secret, mask: '<second secret>' },
          { value: checked.other.token, mask: '<second token>' },
        ]
      : []),
  ]);
  const out = (text: string) => output.out(redact(text));
  const err = (text: string) => output.err(redact(text));

  if (options.dryRun) {
    out(
      dryRunText({
        target: checked.target,
        credentials: checked.own,
        ...(checked.other ? { other: checked.other } : {}),
        profile,
        ...(options.callbackUrl !== undefined ? { callbackUrl: options.callbackUrl } : {}),
        amount: checked.amount,
        gapMs: checked.gapMs,
        waitMs: checked.waitMs,
      }),
    );
    return 0;
  }

  let reference: RunningReference | undefined;
  const inboxes: CallbackInbox[] = [];
  try {
    reference = await startDriftReference(checked.other ? [checked.own, checked.other] : [checked.own]);
    let callbacks: Parameters<typeof runDrift>[0]['callbacks'];
    if (checked.listen && options.callbackUrl !== undefined) {
      const target = await startCallbackInbox({ ...checked.listen, acknowledge: profile.callbacks.acknowledge });
      inboxes.push(target);
      const sandbox = await startCallbackInbox({ host: '127.0.0.1', port: 0, acknowledge: profile.callbacks.acknowledge });
      inboxes.push(sandbox);
      callbacks = { targetUrl: options.callbackUrl, target, sandbox, waitMs: checked.waitMs };
      err(`drift: receiving the target's callbacks on ${target.url} (--listen), sent to ${options.callbackUrl}\n`);
    }
    err(`drift: probing ${checked.target} and a sandbox with the profile ${profile.name}, ${checked.gapMs} ms between requests to the target\n`);
    const report = await runDrift({
      target: checked.target,
      credentials: checked.own,
      ...(checked.other ? { other: checked.other } : {}),
      profile,
      profileSource,
      reference,
      ...(callbacks ? { callbacks } : {}),
      amount: checked.amount,
      gapMs: checked.gapMs,
      onEvent: (event) => err(progress(event)),
    });
    out(options.json ? `${JSON.stringify(report, null, 2)}\n` : formatDrift(report));
    if (options.junit !== undefined) writeFileSync(resolve(options.junit), redact(junitXml([driftSuite(report)], 'deposit-sandbox drift')));
    if (options.writeProfile !== undefined) writeProfileFile(options.writeProfile, report, profileSource, profile, redact, err);
    return report.stopped ? 2 : report.differences.length > 0 ? 1 : 0;
  } catch (error) {
    throw new Error(redact((error as Error).message));
  } finally {
    for (const inbox of inboxes) await inbox.close();
    await reference?.close();
  }
}

function writeProfileFile(file: string, report: DriftReport, source: string, profile: ReturnType<typeof loadProfile>, redact: (text: string) => string, err: (text: string) => void): void {
  if (report.stopped) {
    err(`drift: ${file} not written: the run stopped before it could see enough.\n`);
    return;
  }
  const text = writeProfile(profile, source, report.adoptions, {
    target: report.target,
    date: new Date().toISOString().slice(0, 10),
    notAdopted: report.not_adoptable,
    unseen: report.cannot_see,
  });
  writeFileSync(resolve(file), redact(text));
  err(`drift: wrote ${file}: ${report.adoptions.length} choice${report.adoptions.length === 1 ? '' : 's'} adopted from the target; check it with drift --profile ${file}\n`);
}

function progress(event: DriftEvent): string {
  if (event.type === 'signing') return `drift: the target answered ${event.status} to ${event.probe}: ${event.label}\n`;
  if (event.type === 'waiting') {
    const seconds = Math.round(event.waitMs / 1000);
    if (event.trades.length === 0) return '';
    return `drift: waiting up to ${seconds} s for the target's callbacks; pay these trades on their payment pages if its test environment does not move them itself:\n${event.trades.map((trade) => `  ${trade.id} (${trade.probe})${trade.url ? `  ${trade.url}` : ''}`).join('\n')}\n`;
  }
  return '';
}
