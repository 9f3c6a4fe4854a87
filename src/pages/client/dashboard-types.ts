import type { AdminTrade } from '../../admin/admin-trade.js';
import type { MerchantsAnswer } from '../../admin/merchant-routes.js';
import type { CallbackEvent } from '../../callbacks/records.js';
import type { Job } from '../../clock/jobs.js';
import type { ScenarioSummary } from '../../scenarios/describe-scenario.js';
import type { HistoryEntry, TradeState } from '../../trades/trade.js';

/** GET /_sandbox/trades (the answers below follow the admin API's shapes). */
export interface TradesAnswer {
  trades: AdminTrade[];
  total: number;
}

export interface TradeDetailAnswer {
  trade: AdminTrade;
  history: HistoryEntry[];
  callbacks: CallbackEvent[];
  pending: Job[];
}

export interface ClockAnswer {
  mode: 'real' | 'manual';
  now: string;
  pending: number;
  next_due: string | null;
}

/** What the detail's buttons do. */
export interface DetailActions {
  transition(state: string): void;
  replay(callbackId: string): void;
}

export type { AdminTrade, MerchantsAnswer, CallbackEvent, HistoryEntry, Job, ScenarioSummary, TradeState };
