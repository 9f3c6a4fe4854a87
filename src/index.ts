// The package root: `import { startSandbox } from 'deposit-sandbox'`. This is the whole public
// surface (docs/programmatic.md describes it; test/in-process/public-surface.test.ts pins the list);
// every other module is internal and may change in any release.

// Start a sandbox in-process, and its handle.
export { startSandbox, type RunningSandbox, type SandboxOptions } from './programmatic/start-sandbox.js';
export type { CallbackMatch, CallbackPredicate, WaitForOptions } from './programmatic/callback-waiter.js';
export type { ForkHelperOptions, WorkspaceHandle } from './programmatic/workspace-handle.js';
export type { StateDocument } from './sessions/state-document.js';

// Signing and verification, as the provider and the sandbox's callbacks do them.
export { sign, stringToSign, verifySignature, verifyCallbackSignature, type SignedEndpoint } from './auth/signature.js';

// Signing a request under a provider profile (docs/provider-profile.md), as a merchant does.
export { loadProfile } from './profile/load-profile.js';
export { signRequest, signatureHeader } from './profile/sign-request.js';
export type { Profile } from './profile/profile-schema.js';

// The admin client (also usable against a sandbox started elsewhere) and its answers.
export { AdminClient, AdminClientError, type AdminClientOptions, type CallbackFilter, type TradeFilter } from './admin-client/admin-client.js';
export type { AdvanceAnswer, ClockAnswer, HealthAnswer, ResetAnswer, TradeDetail, TradesAnswer } from './admin/admin-answers.js';
export type { AdminTrade } from './admin/admin-trade.js';
export type { Attempt, CallbackEvent, CallbackStatus } from './store/callback-records.js';
export type { CheckCaseResult, CheckReport, CheckVerdict } from './check-callback/check-report.js';
export type { ScenarioSummary } from './scenarios/describe-scenario.js';
export type { IntegrationReport } from './report/report-schema.js';

// What the provider endpoints answer, and the error envelope of every route.
export type { Trade, TradeState, TradeType, HistoryEntry } from './trades/trade.js';
export type { ErrorDetail, ErrorEnvelope } from './http/errors.js';
export type { Merchant } from './merchants/fixtures.js';
