import type { AdminAnswer } from '../../admin/admin-api.js';
import type { CallbackEvent } from '../../store/callback-records.js';
import type { ScenarioSummary } from '../../scenarios/describe-scenario.js';

/**
 * The admin API's answers as the dashboard reads them, as the routes declare them
 * (src/admin/admin-api.ts; type-only imports, so nothing of the server is bundled).
 */
export type TradeDetailAnswer = AdminAnswer<'/trades/:id', 'GET'>;
export type ScenariosAnswer = AdminAnswer<'/scenarios', 'GET'>;
export type MerchantsAnswer = AdminAnswer<'/merchants', 'GET'>;

/** What the detail's buttons do. */
export interface DetailActions {
  transition(state: string): void;
  replay(callbackId: string): void;
}

export type { CallbackEvent, ScenarioSummary };
