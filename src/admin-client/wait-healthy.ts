import { AdminClientError, type AdminClient } from './admin-client.js';

export interface WaitHealthyOptions {
  /** Give up after this many ms (default 30 s). */
  timeoutMs?: number;
  /** Pause between attempts, in ms (default 200). */
  intervalMs?: number;
  /**
   * When the wait began (Date.now(), default: now). A caller that spent part of the time already
   * (waiting for a ready file) passes its start, so the deadline and the message stay the timeout it was given.
   */
  startedAt?: number;
}

/**
 * Resolves once GET /_sandbox/health answers 200 with status "ok" (answers `attempts` made),
 * asking again every `intervalMs` while the sandbox is unreachable or not yet healthy.
 * Rejects with an AdminClientError (code `not_ready`) naming the last problem on timeout;
 * an answer that will not change by waiting (a wrong admin token, not a sandbox) rejects at once.
 */
export async function waitHealthy(client: AdminClient, options: WaitHealthyOptions = {}): Promise<{ attempts: number }> {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const intervalMs = options.intervalMs ?? 200;
  const deadline = (options.startedAt ?? Date.now()) + timeoutMs;
  let attempts = 0;
  let last = 'no attempt was made';
  for (;;) {
    attempts++;
    try {
      const health = await client.health();
      if (health.status === 'ok') return { attempts };
      last = `it answered status ${JSON.stringify(health.status)}`;
    } catch (error) {
      if (!(error instanceof AdminClientError)) throw error;
      // 5xx and unreachable may pass; a 401/403/404 or a non-sandbox answer will not.
      if (error.status !== null && error.status < 500) throw error;
      last = error.message;
    }
    const left = deadline - Date.now();
    if (left <= 0) break;
    await new Promise((resolve) => setTimeout(resolve, Math.min(intervalMs, left)));
  }
  throw new AdminClientError(
    `The sandbox at ${client.url} was not healthy within ${formatMs(timeoutMs)} (${attempts} ${attempts === 1 ? 'attempt' : 'attempts'}). Last problem: ${last}`,
    null,
    'not_ready',
  );
}

function formatMs(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000}s` : `${ms}ms`;
}
