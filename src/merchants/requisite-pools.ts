import { z } from 'zod';

/** One issuing bank of the requisites pool: its name and the 6-digit BINs its cards start with. */
export const bankSchema = z.strictObject({
  name: z.string({ error: 'must be the bank name as the payer sees it, e.g. "Сбербанк"' }).min(1, 'must be a non-empty bank name'),
  bins: z
    .array(z.string({ error: 'must be 6 digits in quotes, e.g. "220220"' }).regex(/^\d{6}$/, 'must be 6 digits in quotes, e.g. "220220"'), {
      error: 'must be a list of 6-digit card BINs, e.g. ["220220", "427638"]',
    })
    .min(1, 'must list at least one 6-digit card BIN'),
});

/** The names, banks and BINs requisites are drawn from. */
export const requisitesPoolSchema = z.strictObject({
  names: z.array(z.string().min(1, 'must be a non-empty name'), { error: 'must be a list of recipient names, e.g. ["Иван П."]' }).min(1, 'must list at least one recipient name'),
  banks: z.array(bankSchema, { error: 'must be a list of banks such as [{"name": "Сбербанк", "bins": ["220220"]}]' }).min(1, 'must list at least one bank'),
});

export type RequisitesPool = z.infer<typeof requisitesPoolSchema>;

/**
 * The default pool: what a Russian provider shows the payer, in Cyrillic (first name and
 * the initial of the surname, as banks display a recipient), banks by their Russian names,
 * and real BIN prefixes of each bank: Mir (2200-2204), Visa (4...), Mastercard (5...).
 */
export const CYRILLIC_POOL: RequisitesPool = {
  names: ['Иван П.', 'Анна С.', 'Сергей И.', 'Ольга К.', 'Дмитрий С.', 'Мария П.', 'Алексей Н.', 'Екатерина В.'],
  banks: [
    { name: 'Сбербанк', bins: ['220220', '427638', '427601'] },
    { name: 'Т-Банк', bins: ['220070', '553691', '437773'] },
    { name: 'Альфа-Банк', bins: ['220015', '415428', '548673'] },
    { name: 'ВТБ', bins: ['220024', '418868', '427229'] },
    { name: 'Газпромбанк', bins: ['220001', '426890'] },
    { name: 'Райффайзенбанк', bins: ['220030', '462729'] },
  ],
};

/** The transliterated pool of earlier versions, chosen with `"requisites": "latin"` in a fixtures file. */
export const LATIN_POOL: RequisitesPool = {
  names: ['Ivan Petrov', 'Anna Smirnova', 'Sergey Ivanov', 'Olga Kuznetsova', 'Dmitry Sokolov', 'Maria Popova'],
  banks: [
    { name: 'Sberbank', bins: ['220220', '427638'] },
    { name: 'T-Bank', bins: ['553691', '220070'] },
    { name: 'Alfa-Bank', bins: ['415428', '220015'] },
    { name: 'VTB', bins: ['220024', '418868'] },
  ],
};

/** The named pools a fixtures file may pick with `"requisites": "<name>"`. */
export const NAMED_POOLS = { cyrillic: CYRILLIC_POOL, latin: LATIN_POOL } as const;

/** `requisites` of a fixtures file: a named pool or a pool of its own. */
export const requisitesOptionSchema = z.union(
  [z.enum(['cyrillic', 'latin'], { error: (iss) => `must be "cyrillic" (the default), "latin", or a pool {"names": [...], "banks": [...]}; got ${JSON.stringify(iss.input)}` }), requisitesPoolSchema],
  { error: 'must be "cyrillic" (the default), "latin", or a pool {"names": [...], "banks": [{"name": ..., "bins": [...]}]}' },
);
export type RequisitesOption = z.infer<typeof requisitesOptionSchema>;

/** The pool a fixtures `requisites` value stands for (the Cyrillic one when absent). */
export function poolOf(option: RequisitesOption | undefined): RequisitesPool {
  if (option === undefined) return CYRILLIC_POOL;
  return typeof option === 'string' ? NAMED_POOLS[option] : option;
}
