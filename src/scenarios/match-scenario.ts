import type { TradeType } from '../trades/trade.js';
import type { AmountMatch, ScenarioMatch } from './scenario.js';
import { compilePattern, type ScenarioPattern } from './scenario-pattern.js';

/** What matching looks at in a create request (both create bodies fit). */
export interface MatchRequest {
  type: TradeType;
  merchant: string;
  amount_cents: number;
  order: string;
  customer?: string | undefined;
  cusotmer?: string | undefined;
}

const list = <T>(value: T | readonly T[]): readonly T[] => (Array.isArray(value) ? value : [value as T]);

export function matchesAmount(match: AmountMatch, amount: number): boolean {
  if (typeof match === 'number') return amount === match;
  if (match.last_digits !== undefined) return String(amount).endsWith(match.last_digits);
  return (match.min === undefined || amount >= match.min) && (match.max === undefined || amount <= match.max);
}

/**
 * True when every condition of `match` holds for the request. No match block: header only, never true.
 * `pattern` gives the compiled form of a regular expression; the scenario engine passes its own
 * patterns, compiled once (left out, each is compiled on the spot).
 */
export function matchesScenario(match: ScenarioMatch | undefined, request: MatchRequest, pattern: (source: string) => ScenarioPattern = compilePattern): boolean {
  if (!match) return false;
  if (match.type !== undefined && !list(match.type).includes(request.type)) return false;
  if (match.merchant !== undefined && !list(match.merchant).some((id) => id.toLowerCase() === request.merchant.toLowerCase())) return false;
  if (match.amount !== undefined && !matchesAmount(match.amount, request.amount_cents)) return false;
  if (match.order !== undefined && !pattern(match.order).test(request.order)) return false;
  if (match.customer !== undefined) {
    const customer = request.customer ?? request.cusotmer;
    if (customer === undefined) return false;
    if (typeof match.customer === 'string' ? customer !== match.customer : !pattern(match.customer.regex).test(customer)) return false;
  }
  return true;
}
