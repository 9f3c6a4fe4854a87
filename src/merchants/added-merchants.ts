import { randomBytes, randomUUID } from 'node:crypto';
import { z } from 'zod';
import { merchantSchema, type Merchant, type MerchantDirectory } from './fixtures.js';
import type { Store } from '../store/store.js';

const ROW = 'merchant:';

/**
 * POST /_sandbox/merchants: every field may be left out and is then generated. Unknown fields
 * are ignored, as in every body the sandbox reads (the fixtures file, being configuration,
 * refuses them); the 201 answer shows every value the merchant got.
 */
export const newMerchantSchema = z.object(merchantSchema.shape).partial();
export type NewMerchant = z.infer<typeof newMerchantSchema>;

/** Adds the merchants a workspace stored (meta rows `merchant:<id>`) to its directory. */
export function restoreAddedMerchants(store: Store, directory: MerchantDirectory): MerchantDirectory {
  for (const row of store.meta.values()) {
    if (!row.id.startsWith(ROW)) continue;
    const parsed = merchantSchema.safeParse(row['merchant']);
    if (parsed.success) directory.add(parsed.data);
  }
  return directory;
}

export type AddMerchantResult = { ok: true; merchant: Merchant } | { ok: false; taken: Merchant };

/**
 * Adds a merchant to one sandbox (a workspace) and stores it, so it survives a restart and a
 * reset. Fields left out are generated; a taken id is refused (also one being saved now).
 * Saved first: the merchant authenticates only once its row is written, and a failed write
 * (a WriteFailedError, rejected) leaves the workspace as it was.
 */
export async function addMerchant(parts: { store: Store; merchants: MerchantDirectory }, input: NewMerchant): Promise<AddMerchantResult> {
  const first = parts.merchants.list()[0];
  const merchant: Merchant = {
    id: input.id ?? randomUUID(),
    name: input.name ?? 'Workspace merchant',
    token: input.token ?? `tok_${randomBytes(12).toString('hex')}`,
    secret: input.secret ?? `sec_${randomBytes(16).toString('hex')}`,
    rate: input.rate ?? first?.rate ?? 92.5,
  };
  const row = `${ROW}${merchant.id.toLowerCase()}`;
  const saving = merchantSchema.safeParse(parts.store.meta.get(row)?.['merchant']);
  const taken = parts.merchants.get(merchant.id) ?? (saving.success ? saving.data : undefined);
  if (taken) return { ok: false, taken };
  parts.store.meta.put({ id: row, merchant });
  await parts.store.commit();
  parts.merchants.add(merchant);
  return { ok: true, merchant };
}
