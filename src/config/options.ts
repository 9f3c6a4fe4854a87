import { z } from 'zod';
import { AUTH_MODES } from '../auth/authenticate.js';
import { durationListSchema, durationSchema } from '../clock/duration-schema.js';
import { LANGS } from '../i18n/lang.js';

/** A blank string (an empty environment variable, passed on by code) is no value: the default applies. */
const blankAsUnset = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);

const port = z.coerce
  .number({ error: 'must be a port number from 0 to 65535 (0 picks a free port)' })
  .int('must be a whole port number')
  .min(0, 'must be from 0 to 65535 (0 picks a free port)')
  .max(65535, 'must be from 0 to 65535 (0 picks a free port)');

/** The placeholders `--probe` may hold, each replaced (URL-encoded) for the trade whose credit is read. */
export const PROBE_PLACEHOLDERS = ['{merchant}', '{workspace}'] as const;

const PROBE_EXAMPLE = 'e.g. http://127.0.0.1:3000/probe or http://127.0.0.1:3000/probe/{merchant}';
const probeUrl = z.string().superRefine((value, ctx) => {
  const unknown = value.match(/\{[^}]*\}/g)?.find((p) => !(PROBE_PLACEHOLDERS as readonly string[]).includes(p));
  if (unknown !== undefined) {
    ctx.addIssue({ code: 'custom', message: `holds ${unknown}, which is no placeholder: use {merchant} or {workspace} (${PROBE_EXAMPLE})` });
    return;
  }
  const sample = value.replaceAll('{merchant}', 'merchant').replaceAll('{workspace}', 'workspace');
  if (!URL.canParse(sample) || !/^https?:$/.test(new URL(sample).protocol)) ctx.addIssue({ code: 'custom', message: `must be an absolute http(s) URL of your balance probe (${PROBE_EXAMPLE})` });
});

const SIZE_UNITS: Readonly<Record<string, number>> = { '': 1, b: 1, kb: 1024, kib: 1024, mb: 1024 ** 2, mib: 1024 ** 2, gb: 1024 ** 3, gib: 1024 ** 3 };
const SIZE_HINT = 'a size such as "10MB", "512KB" or a number of bytes (1 MB = 1,048,576 bytes)';

/** A size in bytes: a number, or a number and a unit (B, KB, MB, GB; each KB 1024 bytes). */
const sizeSchema = z.union([z.string(), z.number()], { error: `must be ${SIZE_HINT}` }).transform((value, ctx) => {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(String(value));
  const unit = SIZE_UNITS[match?.[2]?.toLowerCase() ?? 'x'];
  if (!match || unit === undefined) {
    ctx.addIssue({ code: 'custom', message: `must be ${SIZE_HINT}; got ${JSON.stringify(value)}` });
    return z.NEVER;
  }
  return Math.floor(Number(match[1]) * unit);
});

/** Everything a sandbox can be started with; the CLI and startSandbox() share it. */
export const sandboxOptionsSchema = z.object({
  port: z.preprocess(blankAsUnset, port.default(4242)),
  host: z.string().min(1).default('127.0.0.1'),
  data: z.string().min(1).default('.deposit-sandbox'),
  inMemory: z.boolean().default(false),
  fixtures: z.string().min(1).optional(),
  publicUrl: z.url({ protocol: /^https?$/, error: 'must be an absolute http(s) URL such as http://localhost:4242' }).optional(),
  auth: z.enum(AUTH_MODES, { error: `must be one of ${AUTH_MODES.join(', ')}` }).default('either'),
  seed: z.preprocess(blankAsUnset, z.coerce.number({ error: 'must be a whole number' }).int('must be a whole number').optional()),
  clock: z.enum(['real', 'manual'], { error: 'must be real or manual' }).default('real'),
  /** A folder of scenario YAML files, matched before the bundled ones. */
  scenarios: z.string().min(1).optional(),
  /** Load the bundled scenarios (orders starting with "sbx-"); false with --no-bundled-scenarios. */
  bundledScenarios: z.boolean().default(true),
  /**
   * The merchant's balance probe (contract §13, read by src/report/credit-check.ts): with it, a
   * callback row is `handled` only when the probe shows the right credit. `{merchant}` and
   * `{workspace}` in it are replaced by the trade's merchant id and workspace name.
   */
  probe: z.preprocess(blankAsUnset, probeUrl.optional()),
  /** When set, every /_sandbox route requires `Authorization: Bearer <token>`. */
  adminToken: z.string().min(1).optional(),
  /** How long a callback receiver has to answer 2xx. */
  callbackTimeout: durationSchema.refine((ms) => ms > 0, 'must be longer than 0, e.g. "10s" or "500ms"').default(10_000),
  /**
   * Waits between callback attempts; after the last one the callback is failed. Left out: the
   * provider profile's `callbacks.retries` (the sandbox profile's are 1s, 5s, 30s, 2m, 10m).
   */
  callbackRetries: durationListSchema.optional(),
  /** The provider profile: a built-in's name or a profile file's path (docs/provider-profile.md); `sandbox` when left out. */
  profile: z.preprocess(blankAsUnset, z.string().min(1).optional()),
  /**
   * After SIGINT/SIGTERM (or close()), how long requests in flight and half-sent requests
   * may take before every connection is closed; the store is saved either way.
   */
  shutdownTimeout: durationSchema.default(10_000),
  /** The payment and result pages' language when neither `?lang=` nor Accept-Language names ru or en. */
  pageLang: z.enum(LANGS, { error: `must be one of ${LANGS.join(', ')}` }).default('ru'),
  /** A workspace (/w/<name>) unused this long is removed; 0 keeps them forever. */
  workspaceTtl: durationSchema.default(24 * 3600 * 1000),
  /** Each workspace records its session (requests, answers, callbacks, clock moves; docs/sessions.md); false with --no-record. */
  record: z.boolean().default(true),
  /** The most a workspace's session recording holds, in bytes; the oldest entries go first. */
  recordLimit: z.preprocess(blankAsUnset, sizeSchema.refine((bytes) => bytes >= 16 * 1024, 'must be at least 16KB').default(10 * 1024 * 1024)),
  /** A folder where each workspace's session is written as HAR when the server stops and when the workspace is removed. */
  recordDir: z.preprocess(blankAsUnset, z.string().min(1).optional()),
  /** How many workspaces besides `default` may exist at once. */
  maxWorkspaces: z.preprocess(
    blankAsUnset,
    z.coerce.number({ error: 'must be a whole number of 1 or more, e.g. 1000' }).int('must be a whole number of 1 or more, e.g. 1000').min(1, 'must be 1 or more, e.g. 1000').default(1000),
  ),
});

export type SandboxOptionsInput = z.input<typeof sandboxOptionsSchema>;
export type SandboxOptions = z.output<typeof sandboxOptionsSchema>;
