import type { AdminTrade } from '../admin/admin-trade.js';
import type { ErrorEnvelope } from '../errors.js';

export const DEFAULT_SANDBOX_URL = 'http://127.0.0.1:4242';

export interface TriggerOptions {
  /** The sandbox's base URL (default http://127.0.0.1:4242). */
  url?: string;
  adminToken?: string;
  note?: string;
  json?: boolean;
}

/**
 * `deposit-sandbox trigger <trade-id> <state>`: moves a trade through the admin API
 * (POST /_sandbox/trades/:id/transition) and prints the result. Throws an Error whose
 * message says what went wrong; the CLI prints it and exits 1.
 */
export async function triggerCommand(
  tradeId: string,
  state: string,
  options: TriggerOptions = {},
  write: (text: string) => void = (text) => process.stdout.write(text),
): Promise<void> {
  const base = (options.url ?? DEFAULT_SANDBOX_URL).replace(/\/+$/, '');
  let endpoint: URL;
  try {
    endpoint = new URL(`${base}/_sandbox/trades/${encodeURIComponent(tradeId)}/transition`);
  } catch {
    throw new Error(`--url ${JSON.stringify(options.url)} is not a URL. Pass the sandbox address, e.g. --url ${DEFAULT_SANDBOX_URL}.`);
  }
  if (endpoint.protocol !== 'http:' && endpoint.protocol !== 'https:') {
    throw new Error(`--url must be an http(s) URL such as ${DEFAULT_SANDBOX_URL}; got ${JSON.stringify(options.url)}.`);
  }

  let res: Response;
  try {
    res = await fetch(endpoint, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        ...(options.adminToken ? { Authorization: `Bearer ${options.adminToken}` } : {}),
      },
      body: JSON.stringify({ state, ...(options.note !== undefined ? { note: options.note } : {}) }),
      signal: AbortSignal.timeout(30_000),
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const why = cause?.code ?? cause?.message ?? (error as Error).message;
    throw new Error(`Could not reach the sandbox at ${base} (${why}). Start it with \`deposit-sandbox\`, or point --url (or DEPOSIT_SANDBOX_URL) at it.`);
  }

  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new Error(`${base} answered ${res.status} with something that is not JSON; is it a deposit-sandbox? First bytes: ${JSON.stringify(text.slice(0, 120))}`);
  }
  if (!res.ok) {
    const error = (body as Partial<ErrorEnvelope>).error;
    if (!error) throw new Error(`${base} answered ${res.status}: ${text.slice(0, 300)}`);
    const allowed = error.allowed ? ` (allowed now: ${error.allowed.length > 0 ? error.allowed.join(', ') : 'none, the state is final'})` : '';
    throw new Error(`${error.message}${error.message.includes('Allowed:') ? '' : allowed}`);
  }
  if (options.json) {
    write(`${JSON.stringify(body, null, 2)}\n`);
    return;
  }
  const trade = (body as { trade: AdminTrade }).trade;
  const next = trade.allowed.length > 0 ? `it may move to ${trade.allowed.join(', ')}` : 'a final state';
  write(
    `Trade ${trade.id} is now ${trade.state} (${next}).\n` +
      `  order ${trade.order}, merchant ${trade.merchant}, ${(trade.amount_cents / 100).toFixed(2)} ${trade.amount_currency}\n` +
      (trade.callback_url ? `  callback queued for ${trade.callback_url}\n` : '  no callback_url: no callback is sent\n'),
  );
}
