import { z } from 'zod';
import { nearestKey } from '../config/nearest-key.js';
import { durationListSchema } from '../clock/duration-schema.js';
import { TRADE_STATES } from '../trades/trade.js';
import { BUILTIN_PROFILE_NAMES } from './builtin-profile-names.js';
import { checkErrorBody } from './check-error-body.js';

// The provider profile file (docs/provider-profile.md): every choice the interface document
// leaves open, as one named value each. Two schemas from the same fields: the file, where every
// section may be left to `extends`, and the resolved profile, where every field is there.

export const SIGNATURE_ALGORITHMS = ['hmac-sha256', 'hmac-sha512', 'sha256', 'sha512', 'sha1', 'md5'] as const;
export type SignatureAlgorithm = (typeof SIGNATURE_ALGORITHMS)[number];
/** Where the merchant's secret goes: the HMAC key, or one more slot of the string to sign (plain hashes). */
export const SECRET_PLACES = ['key', 'last-slot', 'first-slot'] as const;
export const SIGNATURE_ENCODINGS = ['hex', 'base64'] as const;
export const CALLBACK_SIGNATURES = ['sandbox', 'standard-webhooks', 'request-style', 'none'] as const;
export const ACKNOWLEDGEMENTS = ['2xx', 'ok-text', 'code-zero'] as const;
export type Acknowledgement = (typeof ACKNOWLEDGEMENTS)[number];
export const SEND_ON = ['every-change', 'final-only'] as const;

/** At most this many waits between callback attempts, each at most a week. */
export const MAX_RETRIES = 20;
const MAX_RETRY_WAIT = 7 * 24 * 3600 * 1000;
/** Headers a signature may not travel in: HTTP's own, and the sandbox's helpers. */
const RESERVED_HEADER = /^(content-type|content-length|host|transfer-encoding|connection|user-agent|x-sandbox-.*|webhook-.*)$/i;
/** An HTTP header name (RFC 9110 token). */
const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/;

const shown = (value: unknown) => {
  const text = JSON.stringify(value);
  return text === undefined ? String(value) : text.length > 40 ? `${text.slice(0, 37)}...` : text;
};

/** One of `values`, with a message that lists them and names the closest to a typo. */
function oneOf<const T extends readonly [string, ...string[]]>(values: T, what: string) {
  return z.enum(values, {
    error: (issue) => {
      const allowed = `must be ${what}: ${values.join(' | ')}`;
      if (issue.input === undefined) return allowed;
      const near = typeof issue.input === 'string' ? nearestKey(issue.input, values) : undefined;
      return `${allowed}; got ${shown(issue.input)}${near ? `; did you mean ${near}?` : ''}`;
    },
  });
}

const flag = (what: string) => z.boolean({ error: (issue) => `must be true or false (${what})${issue.input === undefined ? '' : `; got ${shown(issue.input)}`}` });

const section = <T extends z.core.$ZodLooseShape>(shape: T, what: string) =>
  z.strictObject(shape, { error: (issue) => (issue.code === 'invalid_type' ? `must be a map of ${what}${issue.input === undefined ? '' : `; got ${shown(issue.input)}`}` : undefined) });

const profileName = z
  .string({ error: 'must be the profile\'s name in quotes or plain, e.g. "my-provider"' })
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'must be 1 to 64 letters, digits, ".", "_" or "-", starting with a letter or digit, e.g. "my-provider"')
  .meta({ description: 'The profile\'s name, e.g. "my-provider".' });

const signatureFields = {
  algorithm: oneOf(SIGNATURE_ALGORITHMS, 'a signature algorithm').meta({
    description:
      "hmac-sha256 | hmac-sha512: an HMAC keyed with the merchant's secret. sha256 | sha512 | sha1 | md5: a plain hash of the string, the secret being one more slot of it (secret: last-slot or first-slot).",
  }),
  separator: z
    .string({ error: 'must be the text between the values, in quotes, e.g. "::" or "|" ("" joins them with nothing between)' })
    .max(16, 'must be at most 16 characters')
    .meta({ description: 'Joins the values of the document\'s signature parameters, in the document\'s order, e.g. "::".' }),
  secret: oneOf(SECRET_PLACES, "where the merchant's secret goes").meta({
    description: 'key: the HMAC key (hmac-*). last-slot / first-slot: appended or prepended to the values as one more slot (plain hashes).',
  }),
  encoding: oneOf(SIGNATURE_ENCODINGS, 'the encoding of the signature').meta({ description: 'hex (compared case-insensitively) or base64 (with padding, compared exactly).' }),
  header: z
    .string({ error: 'must be an HTTP header name, e.g. X-Signature' })
    .regex(HEADER_NAME, 'must be an HTTP header name (letters, digits and -), e.g. X-Signature')
    .refine((name) => !RESERVED_HEADER.test(name), 'is a header HTTP or the sandbox uses for something else; choose another, e.g. X-Signature')
    .optional()
    .meta({ description: "Where the signature travels. Left out: the endpoint's token header (X-Auth on create and build, X-Token on get), as the token does." }),
};

/** An HMAC takes the secret as its key; a plain hash has none, so the secret must be a slot. */
function checkSecretPlace(signature: { algorithm: string; secret: string }, ctx: z.core.$RefinementCtx) {
  const hmac = signature.algorithm.startsWith('hmac-');
  if (hmac && signature.secret !== 'key') {
    ctx.addIssue({
      code: 'custom',
      path: ['secret'],
      params: { other: 'algorithm' },
      message: `must be key with ${signature.algorithm} (an HMAC takes the secret as its key); last-slot and first-slot are for the plain hashes sha256, sha512, sha1 and md5`,
    });
  } else if (!hmac && signature.secret === 'key') {
    ctx.addIssue({
      code: 'custom',
      path: ['secret'],
      params: { other: 'algorithm' },
      message: `must be last-slot or first-slot with ${signature.algorithm} (a plain hash has no key: the secret goes into the string as one more slot); key is for hmac-sha256 and hmac-sha512`,
    });
  }
}

const requestFields = {
  duplicate_order_names_trade: flag("whether the 422 for a repeated order carries the earlier trade's id").meta({
    description: "true: the 422 duplicate_order names the earlier trade's id, a sandbox-only helper. false: it says only that the order was used.",
  }),
};

const retries = durationListSchema
  .refine((list) => list.length <= MAX_RETRIES, `must list at most ${MAX_RETRIES} waits`)
  .refine((list) => list.every((wait) => wait <= MAX_RETRY_WAIT), 'must hold waits of at most 7d each')
  .meta({ description: 'The waits between callback attempts, e.g. [1s, 5s, 30s, 2m, 10m]; after the last one the callback is failed. [] sends once.' });

const callbackFields = {
  signature: oneOf(CALLBACK_SIGNATURES, 'a callback signature scheme').meta({
    description:
      "sandbox: X-Signature, hex HMAC-SHA256 of the raw body keyed with the secret. standard-webhooks: webhook-id, webhook-timestamp, webhook-signature (Standard Webhooks). request-style: the body's values signed like a request, in requests.signature.header (X-Signature when that is left out). none: unsigned.",
  }),
  acknowledge: oneOf(ACKNOWLEDGEMENTS, 'what acknowledges a callback').meta({
    description: '2xx: any 2xx answer. ok-text: a 2xx whose body is exactly OK. code-zero: a 2xx whose body is a JSON object with "code": 0.',
  }),
  retries,
  send_on: oneOf(SEND_ON, 'when a callback is sent').meta({ description: 'every-change: on every state change. final-only: only when the trade reaches a final state.' }),
  sandbox_headers: flag('whether callbacks carry X-Sandbox-Event-Id, X-Sandbox-Attempt and X-Sandbox-Workspace').meta({
    description: "true: callbacks carry X-Sandbox-Event-Id, X-Sandbox-Attempt and X-Sandbox-Workspace, sandbox-only helpers. false: only what the profile's signature scheme sends.",
  }),
};

const errorFields = {
  body: z
    .string({ error: 'must be a JSON template in quotes, e.g. \'{"error":{"code":{{code}},"message":{{message}}}}\'' })
    .superRefine((template, ctx) => {
      for (const problem of checkErrorBody(template)) {
        ctx.addIssue({ code: 'custom', message: problem.message, ...(problem.placeholder ? { params: { placeholder: problem.placeholder } } : {}) });
      }
    })
    .meta({
      description: 'The body of 401, 404 and 422 answers on the three endpoints: JSON with {{status}}, {{code}}, {{message}} and {{details}}, each replaced by the JSON encoding of its value.',
    }),
};

const RESERVED_STATES: readonly string[] = TRADE_STATES;
const stateName = z
  .string({ error: 'must be a state name, e.g. processing' })
  .regex(/^[a-z][a-z0-9_]{0,31}$/, 'must be a lowercase state name (letters, digits, _), e.g. processing')
  .refine((name) => !RESERVED_STATES.includes(name), `must not be one of the sandbox's own states (${TRADE_STATES.join(', ')})`);

const stateFields = {
  intermediate: z
    .array(stateName, { error: 'must be a list of state names, e.g. [processing] ([] for none)' })
    .max(5, 'must list at most 5 states')
    .refine((list) => new Set(list).size === list.length, 'must not name a state twice')
    .meta({ description: 'States between created/ecom and the final ones, e.g. [processing]: created/ecom -> processing -> confirmed | canceled | expired.' }),
};

const extendsName = oneOf(BUILTIN_PROFILE_NAMES, 'a built-in profile').meta({ description: "The built-in profile this file starts from; the file's keys replace its keys (lists whole)." });

/** A resolved profile: every field there, `extends` applied. */
export const profileSchema = z.strictObject({
  name: profileName,
  extends: extendsName.optional(),
  requests: section(
    { signature: section(signatureFields, 'algorithm, separator, secret, encoding, header').superRefine(checkSecretPlace), ...requestFields },
    'signature, duplicate_order_names_trade',
  ),
  callbacks: section(callbackFields, 'signature, acknowledge, retries, send_on, sandbox_headers'),
  errors: section(errorFields, 'body'),
  states: section(stateFields, 'intermediate'),
});

/** A provider profile, resolved: what the sandbox follows. */
export type Profile = z.output<typeof profileSchema>;

/**
 * A profile file as written: `name` is required; every other key may be left to the built-in
 * named by `extends`. `$schema` lets a JSON file name profiles/profile.schema.json for its editor.
 */
export const profileFileSchema = z.strictObject({
  $schema: z.string().optional().meta({ description: 'The JSON Schema of this file, for editors (JSON files; YAML files use a yaml-language-server comment).' }),
  name: profileName,
  extends: extendsName.optional(),
  requests: section({ signature: section(signatureFields, 'algorithm, separator, secret, encoding, header').partial().optional(), ...requestFields }, 'signature, duplicate_order_names_trade')
    .partial()
    .optional(),
  callbacks: section(callbackFields, 'signature, acknowledge, retries, send_on, sandbox_headers').partial().optional(),
  errors: section(errorFields, 'body').partial().optional(),
  states: section(stateFields, 'intermediate').partial().optional(),
});

export type ProfileFile = z.output<typeof profileFileSchema>;
