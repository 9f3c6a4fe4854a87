import type { Command } from 'commander';
import type { AdminTrade } from '../admin/admin-trade.js';
import { findTradeByOrder } from '../admin-client/find-trade.js';
import { withSandbox, type SandboxTarget } from '../admin-client/sandbox-target.js';
import type { TradeState } from '../trades/trade.js';
import { addAdminOptions, adminTarget } from './admin-options.js';

export interface TriggerOptions {
  /** Find the trade by the merchant's order instead of its id. */
  order?: string;
  /** Whose order (needed when several merchants used the same order). */
  merchant?: string;
  note?: string;
  json?: boolean;
}

/** Which trade to move: its id, or an order (and merchant). */
export type TradeRef = { id: string } | { order: string; merchant?: string | undefined };

/**
 * `deposit-sandbox trigger`: moves a trade through the admin API
 * (POST /_sandbox/trades/:id/transition), finding it by order first when asked, and prints
 * the result. Throws an Error that says what went wrong and which sandbox was asked.
 */
export async function triggerCommand(
  target: SandboxTarget,
  ref: TradeRef,
  state: string,
  options: TriggerOptions = {},
  write: (text: string) => void = (text) => process.stdout.write(text),
): Promise<AdminTrade> {
  const trade = await withSandbox(target, async (client) => {
    const id = 'id' in ref ? ref.id : (await findTradeByOrder(client, ref.order, ref.merchant)).id;
    // The sandbox itself names the states when this one is unknown.
    return client.transition(id, state as TradeState, options.note);
  });
  if (options.json) {
    write(`${JSON.stringify({ trade }, null, 2)}\n`);
    return trade;
  }
  const next = trade.allowed.length > 0 ? `it may move to ${trade.allowed.join(', ')}` : 'a final state';
  write(
    `Trade ${trade.id} is now ${trade.state} (${next}).\n` +
      `  order ${trade.order}, merchant ${trade.merchant}, ${(trade.amount_cents / 100).toFixed(2)} ${trade.amount_currency}\n` +
      (trade.callback_url ? `  callback queued for ${trade.callback_url}\n` : '  no callback_url: no callback is sent\n'),
  );
  return trade;
}

/** The trade and state from `trigger <trade-id> <state>` or `trigger <state> --order <order> [--merchant <id>]`. */
export function triggerArguments(args: readonly (string | undefined)[], options: TriggerOptions): { ref: TradeRef; state: string } {
  const given = args.filter((arg): arg is string => arg !== undefined);
  if (options.order !== undefined) {
    if (given.length !== 1) {
      throw new Error(
        `With --order, give only the state: deposit-sandbox trigger confirmed --order ${options.order}${options.merchant ? ` --merchant ${options.merchant}` : ' --merchant <id>'}${given.length > 1 ? ` (got ${given.length} arguments: ${given.join(' ')})` : ''}.`,
      );
    }
    return { ref: { order: options.order, merchant: options.merchant }, state: given[0] ?? '' };
  }
  if (options.merchant !== undefined)
    throw new Error('--merchant goes with --order <order>: deposit-sandbox trigger confirmed --order <order> --merchant <id>. With a trade id, leave --merchant out.');
  if (given.length !== 2) {
    throw new Error(`Give the trade id and the state (deposit-sandbox trigger <trade-id> confirmed), or the state and the order (deposit-sandbox trigger confirmed --order <order> --merchant <id>).`);
  }
  return { ref: { id: given[0] ?? '' }, state: given[1] ?? '' };
}

const TRIGGER_HELP = `
Examples:
  $ deposit-sandbox trigger 3f0c9a52-0d8e-4b4f-9a57-6f2b8f1f3c11 confirmed
  $ deposit-sandbox trigger confirmed --order order-1001 --merchant 6f1c2a9e-3b7d-4c52-9a1e-2d4b8f0c7e51
  $ deposit-sandbox trigger <id> canceled --url http://127.0.0.1:5000 --admin-token s3cret
  $ DEPOSIT_SANDBOX_URL=http://127.0.0.1:5000 deposit-sandbox trigger <id> expired
`;

/** Registers `deposit-sandbox trigger`. */
export function registerTrigger(program: Command): void {
  addAdminOptions(
    program
      .command('trigger')
      .description('move a trade to a state through the admin API of a running sandbox')
      .usage('[options] <trade-id> <state> | <state> --order <order> [--merchant <id>]')
      .argument('[trade-id]', 'the trade id (the "id" of the create response); leave it out with --order')
      .argument('[state]', 'confirmed, canceled or expired'),
  )
    .option('--order <order>', 'find the trade by the order the merchant sent instead of its id')
    .option('--merchant <id>', 'with --order: the merchant whose order it is')
    .option('--note <text>', "a note for the trade's history")
    .option('--json', 'print the admin API answer as JSON')
    .addHelpText('after', TRIGGER_HELP)
    .action(async (first: string | undefined, second: string | undefined, options: TriggerOptions, command: Command) => {
      const { ref, state } = triggerArguments([first, second], options);
      await triggerCommand(adminTarget(command), ref, state, options);
    });
}
