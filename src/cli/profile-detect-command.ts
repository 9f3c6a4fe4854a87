import { readFileSync } from 'node:fs';
import { detectCallbackScheme, detectRequestScheme, type Detection } from '../drift/detect-scheme.js';
import { readCapture, type CapturedRequest } from '../drift/read-capture.js';
import { redactor } from '../drift/redact.js';

export interface ProfileDetectOptions {
  secret?: string;
  request?: string;
  callback?: string;
  entry?: string;
  json?: boolean;
}

const PROVIDER_PATH = /\/api\/v1\/trades\/(deposit\/(create|build)|[^/]+\/[^/]+)\/?(\?|$)/;

/**
 * `deposit-sandbox profile detect`: which built-in scheme signs a captured request or callback.
 * Returns the exit code: 0 when one verifies, 1 when none does. Throws an Error that says what
 * to pass for bad flags or a file that cannot be read. The secret never appears in the output.
 */
export function profileDetectCommand(options: ProfileDetectOptions, write: (text: string) => void = (text) => process.stdout.write(text)): number {
  const secret = options.secret;
  if (!secret) throw new Error("--secret is required: the merchant's secret the signature was made with (or set DEPOSIT_SANDBOX_SECRET).");
  if ((options.request === undefined) === (options.callback === undefined)) throw new Error('Pass one of --request <file> (a provider request) or --callback <file> (a callback).');
  const file = options.request ?? options.callback ?? '';
  const entry = options.entry === undefined ? undefined : Number(options.entry);
  if (entry !== undefined && (!Number.isInteger(entry) || entry < 1)) throw new Error(`--entry must be 1 or more (1 is the first entry of the HAR file); got ${JSON.stringify(options.entry)}.`);
  const redact = redactor([{ value: secret, mask: '<secret>' }]);
  try {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      throw new Error(`${file} cannot be read: ${(error as Error).message}`);
    }
    const kind = options.request !== undefined ? 'request' : 'callback';
    const pick = (request: CapturedRequest) => (kind === 'request' ? PROVIDER_PATH.test(request.url) : request.method === 'POST' && !PROVIDER_PATH.test(request.url));
    const capture = readCapture(text, file, { ...(entry !== undefined ? { entry } : {}), pick });
    const detection = kind === 'request' ? detectRequestScheme(capture, secret) : detectCallbackScheme(capture, secret);
    const verified = detection.tried.filter((tried) => tried.verified);
    write(
      redact(
        options.json
          ? `${JSON.stringify({ kind, source: capture.source, endpoint: detection.endpoint, verified, tried: detection.tried, notes: detection.notes }, null, 2)}\n`
          : formatDetection(file, capture, detection),
      ),
    );
    return verified.length > 0 ? 0 : 1;
  } catch (error) {
    throw new Error(redact((error as Error).message));
  }
}

function formatDetection(file: string, capture: CapturedRequest, detection: Detection): string {
  const what = detection.kind === 'request' ? `a ${detection.endpoint} request` : 'a callback';
  const verified = detection.tried.filter((tried) => tried.verified);
  const lines = [`${file} (${capture.source}): ${what}, ${capture.method} ${capture.url}`];
  if (verified.length === 0) {
    lines.push('No built-in scheme verifies its signature with this secret.');
  } else {
    for (const scheme of verified) {
      const whose =
        scheme.profiles.length === 0
          ? `  no built-in profile sends callbacks so: write callbacks.signature: ${scheme.name} in your profile`
          : `  as the profile${scheme.profiles.length === 1 ? '' : 's'} ${scheme.profiles.join(', ')} sign${scheme.profiles.length === 1 ? 's' : ''} ${detection.kind === 'request' ? 'requests' : 'callbacks'}`;
      lines.push(`Verified: ${scheme.name}: ${scheme.label}`, whose);
    }
  }
  const width = Math.max(...detection.tried.map((tried) => tried.name.length));
  lines.push('', 'Tried:');
  for (const tried of detection.tried) lines.push(`  ${tried.verified ? 'yes' : 'no '}  ${tried.name.padEnd(width)}  ${tried.verified ? tried.label : (tried.why ?? '')}`);
  if (detection.notes.length > 0) lines.push('', ...detection.notes);
  return `${lines.join('\n')}\n`;
}
