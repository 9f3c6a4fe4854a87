import { z } from 'zod';
import { errors } from '../http/errors.js';
import type { Merchant } from '../merchants/fixtures.js';
import type { Sandbox } from '../sandbox.js';

/** The optional `merchant` field of an admin route's request: an id that fixturesMerchant() then looks up. */
export const fixturesMerchantField = z.string({ error: 'merchant must be a merchant id from the fixtures' }).max(100, 'merchant must be a merchant id from the fixtures').optional();

/**
 * The merchant an admin route was asked for (`asked`, an id of the sandbox's merchants), or when
 * none was, `fallback`'s; a 422 that lists the ids the sandbox has when there is no such merchant.
 */
export function fixturesMerchant(sandbox: Sandbox, asked: string | undefined, fallback: () => Merchant | undefined): Merchant {
  const merchant = asked !== undefined ? sandbox.merchants.get(asked) : fallback();
  if (merchant) return merchant;
  const known = sandbox.merchants.list().map((m) => m.id);
  throw errors.validation(`Merchant ${JSON.stringify(asked)} is not in this sandbox's fixtures (it has ${known.join(', ')}).`, [
    { field: 'merchant', message: `must be a merchant id from the fixtures: ${known.join(', ')}` },
  ]);
}
