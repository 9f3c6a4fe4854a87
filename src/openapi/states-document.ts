import { FINAL_STATES } from '../lifecycle/transitions.js';
import { statesWith, TRADE_STATES } from '../trades/trade.js';

type Json = Record<string, unknown>;

const same = (list: readonly unknown[], states: readonly string[]) => list.length === states.length && states.every((state, index) => list[index] === state);

/**
 * The document of a sandbox whose provider profile has intermediate states
 * (`states.intermediate`, e.g. `[processing]`): every list of the trade states (a trade's state,
 * a history entry, a callback, the trades filter, a scenario's timeline) names them too, after
 * `ecom`, and the states a transition request may ask for begin with them. Without intermediate
 * states the document is returned as it is.
 *
 * @example
 * statesDocument(openApiDocument({ serverUrl }), ['processing'])
 * // Trade.state: { type: 'string', enum: ['created', 'ecom', 'processing', 'confirmed', 'canceled', 'expired'] }
 */
export function statesDocument(document: Json, intermediate: readonly string[]): Json {
  if (intermediate.length === 0) return document;
  const doc = structuredClone(document);
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) {
      for (const item of value) walk(item);
      return;
    }
    if (value === null || typeof value !== 'object') return;
    const node = value as Json;
    const list = node['enum'];
    if (Array.isArray(list)) {
      // The trade states (the trades filter adds "", an empty filter), or the states a move may end in.
      const states = list.at(-1) === '' ? list.slice(0, -1) : list;
      if (same(states, TRADE_STATES)) node['enum'] = [...statesWith(intermediate), ...list.slice(TRADE_STATES.length)];
      else if (same(list, FINAL_STATES)) node['enum'] = [...intermediate, ...list];
    }
    for (const inner of Object.values(node)) walk(inner);
  };
  walk(doc);
  return doc;
}
