import { AdminClient, DEFAULT_SANDBOX_URL } from '../admin-client/admin-client.js';
import type { TradeState } from '../trades/trade.js';
import { workspaceUrl } from '../workspaces/workspace-url.js';

export { DEFAULT_SANDBOX_URL };

export interface TriggerOptions {
  /** The sandbox's base URL (default http://127.0.0.1:4242). */
  url?: string;
  adminToken?: string;
  /** A workspace (/w/<name>) of that sandbox; default: the unprefixed one. */
  workspace?: string;
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
  const client = new AdminClient({ url: workspaceUrl(options.url ?? DEFAULT_SANDBOX_URL, options.workspace), adminToken: options.adminToken });
  // The sandbox itself names the states when this one is unknown.
  const trade = await client.transition(tradeId, state as TradeState, options.note);
  if (options.json) {
    write(`${JSON.stringify({ trade }, null, 2)}\n`);
    return;
  }
  const next = trade.allowed.length > 0 ? `it may move to ${trade.allowed.join(', ')}` : 'a final state';
  write(
    `Trade ${trade.id} is now ${trade.state} (${next}).\n` +
      `  order ${trade.order}, merchant ${trade.merchant}, ${(trade.amount_cents / 100).toFixed(2)} ${trade.amount_currency}\n` +
      (trade.callback_url ? `  callback queued for ${trade.callback_url}\n` : '  no callback_url: no callback is sent\n'),
  );
}
