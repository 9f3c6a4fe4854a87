import { z } from 'zod';
import { callbackEventSchema } from './callback-records.js';
import { jobSchema } from './jobs.js';
import { tradeRecordSchema } from '../trades/trade.js';

export const metaRowSchema = z.looseObject({ id: z.string() });
export type MetaRow = z.infer<typeof metaRowSchema>;

export const SNAPSHOT_VERSION = 1;

/** The row schema of each table. */
export const tableSchemas = {
  trades: tradeRecordSchema,
  jobs: jobSchema,
  callbacks: callbackEventSchema,
  meta: metaRowSchema,
} as const;
export type TableName = keyof typeof tableSchemas;

/** The persisted shape of a store (db.json). */
export const snapshotSchema = z.object({
  version: z.literal(SNAPSHOT_VERSION),
  trades: z.array(tableSchemas.trades).default([]),
  jobs: z.array(tableSchemas.jobs).default([]),
  callbacks: z.array(tableSchemas.callbacks).default([]),
  meta: z.array(tableSchemas.meta).default([]),
});
export type Snapshot = z.infer<typeof snapshotSchema>;

/** The snapshot with its rows unchecked: rows are checked one by one as they are loaded. */
export const snapshotShellSchema = snapshotSchema.extend({
  trades: z.array(z.unknown()).default([]),
  jobs: z.array(z.unknown()).default([]),
  callbacks: z.array(z.unknown()).default([]),
  meta: z.array(z.unknown()).default([]),
});
