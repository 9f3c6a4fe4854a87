import type { Clock } from '../clock/clock.js';
import type { MerchantDirectory } from '../merchants/fixtures.js';
import { type Refusal, refuse } from '../refusals/refusal.js';
import type { Store } from '../store/store.js';
import type { Random } from './random.js';
import type { DepositRequest } from './requests.js';
import { drawRequisites } from './requisites.js';
import type { TradeRecord } from './trade.js';

export interface TradeServiceDeps {
  store: Store;
  merchants: MerchantDirectory;
  random: Random;
  clock: Clock;
}

/**
 * Creates a trade in its first state (`created` for P2P, `ecom` for ecom) and records it
 * in the store, or returns an `invalid` refusal `duplicate_order` (storing nothing) when the
 * merchant already used the order.
 * The write is synchronous; callers await `store.commit()` before answering.
 */
export function createTrade(deps: TradeServiceDeps, request: DepositRequest, scenario?: string): TradeRecord | Refusal {
  const { store, merchants, random, clock } = deps;
  const merchant = merchants.get(request.merchant);
  if (!merchant) throw new Error(`createTrade: unknown merchant ${request.merchant}`);
  const existing = store.trades.findUnique(merchant.id.toLowerCase(), request.order);
  if (existing) return duplicateOrder(request.order, merchant.id, existing.id);
  const now = clock.nowIso();
  const state = request.type === 'ecom' ? 'ecom' : 'created';
  const customer = request.customer ?? request.cusotmer;
  let record: TradeRecord = {
    id: random.uuid(),
    order: request.order,
    merchant: merchant.id,
    state,
    amount_cents: request.amount_cents,
    amount_currency: 'RUB',
    rate: merchant.rate,
    type: request.type,
    ...(customer !== undefined ? { customer } : {}),
    ...(request.callback_url !== undefined ? { callback_url: request.callback_url } : {}),
    ...(request.return_url !== undefined ? { return_url: request.return_url } : {}),
    requisites: drawRequisites(random, merchants.pool, request.type),
    ...(scenario !== undefined ? { scenario } : {}),
    created_at: now,
    updated_at: now,
    history: [{ from: null, to: state, at: now, cause: 'create' }],
  };
  // A random id is taken only in a store made with the same --seed before: draw another.
  while (!store.trades.insert(record)) record = { ...record, id: random.uuid() };
  return record;
}

function duplicateOrder(order: string, merchant: string, existingId: string): Refusal {
  return refuse.invalid(
    'duplicate_order',
    `A trade with order ${JSON.stringify(order)} already exists for this merchant (id ${existingId}). Each order may be used once; send a new order, or read the existing trade with GET /api/v1/trades/${merchant}/${existingId}.`,
    [{ field: 'order', message: 'already used by another trade of this merchant' }],
  );
}

/**
 * The 422 for a repeated order that does not name the earlier trade, as a provider that keeps
 * trade ids to itself answers (a profile with duplicate_order_names_trade: false).
 */
export function orderUsed(order: string): Refusal {
  return refuse.invalid('duplicate_order', `A trade with order ${JSON.stringify(order)} already exists for this merchant. Each order may be used once: send a new order for a new trade.`, [
    { field: 'order', message: 'already used by another trade of this merchant' },
  ]);
}

/** The merchant's trade with this id, or undefined (also when the trade is another merchant's). */
export function findTrade(store: Store, merchant: string, id: string): TradeRecord | undefined {
  const trade = store.trades.get(id.toLowerCase());
  if (!trade || trade.merchant.toLowerCase() !== merchant.toLowerCase()) return undefined;
  return trade;
}
