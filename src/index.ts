export { createApp, type App } from './app.js';
export { createSandbox, type Sandbox } from './sandbox.js';
export { listen, type RunningServer } from './server.js';
export { stringToSign, sign, verifySignature, verifyCallbackSignature, SIGNATURE_FIELDS } from './auth/signature.js';
export type { SandboxOptionsInput as SandboxOptions } from './config/options.js';
export type { Trade, TradeRecord, TradeState } from './trades/trade.js';
export type { ErrorEnvelope } from './errors.js';
