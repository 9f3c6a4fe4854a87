// The package root: `import { startSandbox } from 'deposit-sandbox'`.

// Start a sandbox in-process (tests), and its parts.
export { startSandbox, type RunningSandbox, type StartSandboxOptions } from './programmatic/start-sandbox.js';
export type { WorkspaceHandle } from './programmatic/workspace-handle.js';
export { DEFAULT_WAIT_MS, type CallbackMatch, type CallbackPredicate, type WaitForOptions } from './programmatic/callback-waiter.js';
export { AdminClient, AdminClientError, DEFAULT_SANDBOX_URL, type AdminClientOptions, type CallbackFilter, type TradeFilter } from './admin-client/admin-client.js';
export type { AdvanceAnswer, ClockAnswer, HealthAnswer, ResetAnswer, TradeDetail, TradesAnswer } from './admin-client/admin-answers.js';
export { createApp, type App } from './app.js';
export { createSandbox, type Sandbox } from './sandbox.js';
export { listen, type RunningServer } from './server.js';
// Persistence, for createSandbox(options, adapter): e.g. new JournalAdapter(dir, { fsync: true }).
export { JournalAdapter, type JournalAdapterOptions } from './store/journal-adapter.js';
export { MemoryAdapter, type StoreAdapter, type StoreSink } from './store/adapter.js';

// Pure helpers a merchant's code and tests need.
export { stringToSign, sign, verifySignature, verifyCallbackSignature, SIGNATURE_FIELDS, type SignedEndpoint } from './auth/signature.js';
export { checkCallbackReceiver, type CheckCallbackOptions } from './check-callback/check-callback-receiver.js';
export { openApiDocument } from './openapi/openapi-document.js';

// Types of what the sandbox answers and sends.
export type { SandboxOptionsInput as SandboxOptions } from './config/options.js';
export type { Trade, TradeRecord, TradeState, TradeType, HistoryEntry } from './trades/trade.js';
export type { AdminTrade } from './admin/admin-trade.js';
export type { Attempt, CallbackEvent, CallbackStatus } from './callbacks/records.js';
export type { CheckCaseResult, CheckReport, CheckVerdict } from './check-callback/check-report.js';
export type { Merchant } from './merchants/fixtures.js';
export type { ScenarioSummary } from './scenarios/describe-scenario.js';
export type { ErrorDetail, ErrorEnvelope } from './errors.js';
