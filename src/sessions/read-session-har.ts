import { SESSION_FORMAT, SESSION_VERSION, type SessionHar, sessionHarSchema } from './session-har.js';

export type ReadHar = { ok: true; har: SessionHar } | { ok: false; message: string };

/**
 * Reads a HAR file as a recorded session (GET /_sandbox/session.har): refused, with what is wrong
 * and what to do, when it is not JSON, not HAR, a HAR another tool wrote (no
 * `log._sandbox.format`), from a later version, or not of the session's shape.
 */
export function readSessionHar(text: string, file: string): ReadHar {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, message: `${file} is not JSON (${(error as Error).message}). Give a HAR file that deposit-sandbox session export (or GET /_sandbox/session.har) wrote.` };
  }
  const log = (value as { log?: { entries?: unknown; _sandbox?: { format?: unknown; version?: unknown } } } | null)?.log;
  if (log === undefined || log === null || !Array.isArray(log.entries)) {
    return { ok: false, message: `${file} is not a HAR file (no log.entries). Give a HAR file that deposit-sandbox session export (or GET /_sandbox/session.har) wrote.` };
  }
  if (log._sandbox?.format !== SESSION_FORMAT) {
    return {
      ok: false,
      message: `${file} is a HAR file but not a recorded session of deposit-sandbox (its log._sandbox.format is not "${SESSION_FORMAT}"): a browser's or another tool's HAR holds no callbacks, signatures or clock to replay. Export the session with deposit-sandbox session export.`,
    };
  }
  const version = log._sandbox.version;
  if (typeof version === 'number' && version > SESSION_VERSION) {
    return {
      ok: false,
      message: `${file} is from a newer deposit-sandbox (session version ${version}); this one reads version ${SESSION_VERSION}. Replay it with the version that recorded it, or upgrade deposit-sandbox.`,
    };
  }
  const parsed = sessionHarSchema.safeParse(value);
  if (!parsed.success) {
    const problems = parsed.error.issues.slice(0, 5).map((issue) => `${issue.path.join('.') || '(file)'}: ${issue.message}`);
    return {
      ok: false,
      message: `${file} is not a whole recorded session (${parsed.error.issues.length} problems; the first: ${problems.join('; ')}). Export it again with deposit-sandbox session export.`,
    };
  }
  return { ok: true, har: parsed.data };
}
