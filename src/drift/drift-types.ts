import type { SignedEndpoint } from '../auth/string-to-sign.js';
import type { Profile } from '../profile/profile-schema.js';
import type { CallbackInbox } from './callback-inbox.js';

/**
 * What a difference is about. `status`, `content_type` and `header` are the answer's; the
 * `field_*` ones a success body's (or a callback body's) key paths, JSON types and formats;
 * `error_shape` an error body's key paths, types and code; `state` the trade's `state`;
 * `callback` the callback's signature scheme.
 */
export const ASPECTS = ['status', 'content_type', 'field_missing', 'field_extra', 'field_type', 'field_format', 'error_shape', 'state', 'header', 'callback'] as const;
export type Aspect = (typeof ASPECTS)[number];

/** A value as a difference shows it: a status, a type, a format, a code, a header's presence. */
export type Shown = string | number | boolean | null;

/** One thing the target does otherwise than the sandbox with the same profile. */
export interface Difference {
  /** The probe's id, e.g. `create.any_bank`, or a callback's, e.g. `callback.nspk`. */
  probe: string;
  aspect: Aspect;
  /** The key path in the body (`payment_data.number`, `error.details[].field`), a header's name, or '' for the answer as a whole. */
  path: string;
  sandbox: Shown;
  target: Shown;
  /** What else the run learnt about it, e.g. which signing the target accepted instead. */
  note?: string;
}

/** A merchant's credentials at the provider. Never printed: every output is masked (redact.ts). */
export interface Credentials {
  merchant: string;
  token: string;
  secret: string;
}

/** One request as it is sent (and as --dry-run prints it). */
export interface ProbeRequest {
  method: 'GET' | 'POST';
  /** The path after the base URL, e.g. `/api/v1/trades/deposit/create`. */
  path: string;
  endpoint: SignedEndpoint;
  headers: Record<string, string>;
  /** The JSON body as sent, for POST. */
  body?: string;
}

/** An answer as the comparison reads it. */
export interface ProbeAnswer {
  status: number;
  /** The media type, lowercased, without parameters ('' when there is no Content-Type). */
  contentType: string;
  /** Header names lowercased. */
  headers: Record<string, string>;
  text: string;
  /** The parsed body; undefined when the body is not JSON. */
  json: unknown;
  isJson: boolean;
}

/** A trade the run created on the target, printed so that it can be found and cleaned up. */
export interface CreatedTrade {
  probe: string;
  id: string;
  order: string;
  type: string;
  /** payment_data.url, when the answer had one. */
  url?: string;
}

/** The sandbox a run compares the target with: in this process, following the run's profile. */
export interface DriftReference {
  /** Its base URL. */
  readonly url: string;
  /** Makes it follow this profile from its next request (PUT /_sandbox/profile). */
  setProfile(profile: Profile): Promise<void>;
  /** Moves one of its trades to a final state, so that it sends a callback. */
  confirm(tradeId: string): Promise<void>;
}

/** Where callbacks are received, when they are checked (--listen and --callback-url). */
export interface DriftCallbacks {
  /** The callback_url of the target's trades: a public address of `target` (--callback-url). */
  targetUrl: string;
  /** Receives the target's callbacks (--listen). */
  target: CallbackInbox;
  /** Receives the sandbox's callbacks (on 127.0.0.1); its url is its trades' callback_url. */
  sandbox: CallbackInbox;
  /** How long to wait for them, in ms. */
  waitMs: number;
}

/** What a run reports while it runs (the CLI prints it on stderr). */
export type DriftEvent =
  | { type: 'probe'; probe: string; target: number; sandbox: number }
  | { type: 'signing'; probe: string; label: string; status: number }
  | { type: 'waiting'; trades: CreatedTrade[]; waitMs: number };
