import { z } from 'zod';
import { merchantSchema, type Merchant } from '../merchants/fixtures.js';
import type { Sandbox } from '../sandbox.js';
import { callbackEventSchema } from '../store/callback-records.js';
import { jobSchema } from '../store/jobs.js';
import { tradeRecordSchema } from '../trades/trade.js';

/** What `format` says in every state document. */
export const STATE_FORMAT = 'deposit-sandbox/state';

/** The layout of the state documents this version writes and reads; a larger one is a later version's. */
export const STATE_VERSION = 1;

/**
 * The largest state document PUT /_sandbox/state reads, in bytes (a larger one is a 413): room
 * for about 8,000 trades with their callbacks, far above what a test prepares, while the body is
 * still bounded as every other (docs/sessions.md).
 */
export const STATE_BODY_LIMIT = 16 * 1024 * 1024;

/**
 * The meta rows of a store that a state document carries, by the modules that own them:
 * `clock` (src/clock/clock.ts), `merchant:<id>` (src/merchants/added-merchants.ts), `scenarios`
 * (src/scenarios/uploaded-scenarios.ts) and `profile` (src/profile/workspace-profile.ts). The
 * round trip through those modules is tested (test/in-process/state-fork.test.ts), so a renamed row fails there.
 */
export const META = { clock: 'clock', merchant: 'merchant:', scenarios: 'scenarios', profile: 'profile' } as const;

const newer = (what: string) => `is from a newer deposit-sandbox (${what}); this one reads version ${STATE_VERSION}. Import it with the version that exported it, or upgrade deposit-sandbox.`;

/** One workspace as a JSON document: GET /_sandbox/state answers it, PUT reads it, a fork copies it. */
export const stateDocumentSchema = z.object({
  format: z.literal(STATE_FORMAT, { error: `must be "${STATE_FORMAT}": the body is not a state document (GET /_sandbox/state answers one)` }),
  version: z
    .number({ error: `must be the number ${STATE_VERSION}` })
    .int({ error: `must be the number ${STATE_VERSION}` })
    .check((ctx) => {
      if (ctx.value > STATE_VERSION) ctx.issues.push({ code: 'custom', message: `${ctx.value} ${newer(`state version ${ctx.value}`)}`, input: ctx.value });
      else if (ctx.value < 1) ctx.issues.push({ code: 'custom', message: `must be ${STATE_VERSION}`, input: ctx.value });
    })
    .meta({ description: `The layout of the document: ${STATE_VERSION}. A document of a later version is refused, with nothing changed.` }),
  workspace: z.string().meta({ description: 'The workspace it was exported from (any workspace may import it).' }),
  exported_at: z.string().meta({ description: 'When it was exported, on the wall clock.' }),
  clock: z.object({
    mode: z.enum(['real', 'manual']).meta({ description: "The exporting workspace's clock mode; an import keeps its own mode." }),
    now: z.iso.datetime({ error: 'must be an ISO 8601 time such as 2026-11-21T13:24:41.316Z' }).meta({ description: 'Sandbox time at export; an import sets its clock to it.' }),
  }),
  profile: z.object({
    source: z.enum(['server', 'workspace']).meta({ description: "server: the workspace followed its server's profile (an import follows the importing server's); workspace: its own, in text." }),
    name: z.string(),
    text: z.string().optional().meta({ description: "The workspace's own profile, as uploaded (YAML or JSON); with source workspace." }),
  }),
  scenarios: z.string().nullable().meta({ description: "The workspace's own scenarios, as uploaded (YAML); null when it has none." }),
  merchants: z
    .array(merchantSchema)
    .meta({ description: "The workspace's own merchants (POST /_sandbox/merchants), with their token and secret; the fixtures' are every workspace's and are not listed." }),
  trades: z.array(tradeRecordSchema).meta({ description: 'Every trade as the store keeps it, its history included.' }),
  callbacks: z.array(callbackEventSchema).meta({ description: 'The callback log: every event with every attempt.' }),
  jobs: z.array(jobSchema).meta({ description: 'The pending steps (timeline moves, callback attempts); `due` is sandbox time in ms.' }),
});
export type StateDocument = z.infer<typeof stateDocumentSchema>;

/** What a state document is read from: one sandbox (a workspace). */
export type StateSource = Pick<Sandbox, 'store' | 'clock' | 'workspace' | 'profile' | 'profileSource'>;

/**
 * The state of one sandbox as a document: its trades, callback log, pending steps, clock, own
 * merchants, own scenarios and profile. The rows are the store's own objects (rows are never
 * changed in place, so a fork may share them); JSON.stringify of it is the export.
 */
export function exportState(sandbox: StateSource, now: number = Date.now()): StateDocument {
  const { store } = sandbox;
  const merchants: Merchant[] = [];
  for (const row of store.meta.values()) {
    if (!row.id.startsWith(META.merchant)) continue;
    const parsed = merchantSchema.safeParse(row['merchant']);
    if (parsed.success) merchants.push(parsed.data);
  }
  const scenarios = store.meta.get(META.scenarios)?.['yaml'];
  const profileText = store.meta.get(META.profile)?.['text'];
  return {
    format: STATE_FORMAT,
    version: STATE_VERSION,
    workspace: sandbox.workspace,
    exported_at: new Date(now).toISOString(),
    clock: { mode: sandbox.clock.mode, now: sandbox.clock.nowIso() },
    profile: {
      source: sandbox.profileSource,
      name: sandbox.profile.name,
      ...(sandbox.profileSource === 'workspace' && typeof profileText === 'string' ? { text: profileText } : {}),
    },
    scenarios: typeof scenarios === 'string' ? scenarios : null,
    merchants,
    trades: [...store.trades.values()],
    callbacks: [...store.callbacks.values()],
    jobs: [...store.jobs.values()],
  };
}
