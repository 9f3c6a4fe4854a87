import type { AdminTrade } from '../admin/admin-trade.js';
import { AdminClientError, type AdminClient } from './admin-client.js';

/**
 * The trade a merchant created with `order`, found through GET /_sandbox/trades?order=…
 * (&merchant=… when given). Without a merchant the order must belong to one merchant only.
 * Rejects with an AdminClientError that says what to pass instead.
 */
export async function findTradeByOrder(client: AdminClient, order: string, merchant?: string): Promise<AdminTrade> {
  const { trades, total } = await client.trades({ order, ...(merchant !== undefined ? { merchant } : {}), limit: 10 });
  const [first] = trades;
  if (total === 1 && first) return first;
  if (total === 0) {
    const whose = merchant !== undefined ? ` for merchant ${merchant}` : '';
    throw new AdminClientError(
      `No trade with order ${JSON.stringify(order)}${whose}. The order is compared exactly (case included); list the trades with GET ${client.url}/_sandbox/trades, or pass the trade id instead.`,
      404,
      'trade_not_found',
    );
  }
  const merchants = [...new Set(trades.map((trade) => trade.merchant))];
  throw new AdminClientError(`${total} trades have order ${JSON.stringify(order)} (merchants ${merchants.join(', ')}). Pass --merchant <id> to say whose, or the trade id.`, 409, 'ambiguous_order');
}
