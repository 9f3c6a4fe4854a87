import type { z } from 'zod';
import type { AdvanceAnswer, ClockAnswer, MerchantsAnswer, ResetAnswer, TradeDetail, TradesAnswer, callbackAnswerSchema, scenariosAnswerSchema } from '../../admin/admin-answers.js';
import type { AdminTrade } from '../../admin/admin-trade.js';
import type { CallbackEvent } from '../../store/callback-records.js';
import type { ScenarioSummary } from '../../scenarios/describe-scenario.js';

/**
 * The admin API's answers as the dashboard reads them: the z.infer types of the schemas the
 * admin client and the OpenAPI document use (type-only imports, so nothing of the server is bundled).
 */
export type TradeDetailAnswer = TradeDetail;
export type ScenariosAnswer = z.infer<typeof scenariosAnswerSchema>;
export type CallbackAnswer = z.infer<typeof callbackAnswerSchema>;

/** What the detail's buttons do. */
export interface DetailActions {
  transition(state: string): void;
  replay(callbackId: string): void;
}

export type { AdminTrade, AdvanceAnswer, CallbackEvent, ClockAnswer, MerchantsAnswer, ResetAnswer, ScenarioSummary, TradesAnswer };
