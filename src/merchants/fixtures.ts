import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { describeIssues, lineAndColumn } from '../config/issues.js';

export const BUNDLED_FIXTURES = fileURLToPath(new URL('../../fixtures/merchants.json', import.meta.url));

export const merchantSchema = z.object({
  id: z.guid({ error: 'must be a UUID such as 6f1c2a9e-3b7d-4c52-9a1e-2d4b8f0c7e51' }),
  name: z.string().min(1, 'must be a non-empty string'),
  token: z.string().min(8, 'must be a string of at least 8 characters (the static X-Auth / X-Token value)'),
  secret: z.string().min(8, 'must be a string of at least 8 characters (the HMAC-SHA256 key)'),
  rate: z.number({ error: 'must be a number, e.g. 92.5' }).positive('must be a positive number'),
});

export const bankSchema = z.object({
  name: z.string().min(1, 'must be a non-empty bank name'),
  bins: z.array(z.string().regex(/^\d{6}$/, 'must be 6 digits')).min(1, 'must list at least one 6-digit card BIN'),
});

export const requisitesPoolSchema = z.object({
  names: z.array(z.string().min(1)).min(1, 'must list at least one recipient name'),
  banks: z.array(bankSchema).min(1, 'must list at least one bank'),
});

export const fixturesSchema = z
  .object({
    merchants: z.array(merchantSchema).min(1, 'must list at least one merchant'),
    requisites: requisitesPoolSchema.optional(),
  })
  .superRefine((value, ctx) => {
    const seen = new Map<string, number>();
    value.merchants.forEach((merchant, index) => {
      const id = merchant.id.toLowerCase();
      const first = seen.get(id);
      if (first !== undefined) {
        ctx.addIssue({ code: 'custom', path: ['merchants', index, 'id'], message: `repeats the id of merchants[${first}]; ids must be unique` });
      }
      seen.set(id, index);
    });
  });

export type Merchant = z.infer<typeof merchantSchema>;
export type RequisitesPool = z.infer<typeof requisitesPoolSchema>;
export type Fixtures = z.infer<typeof fixturesSchema>;

export const DEFAULT_POOL: RequisitesPool = {
  names: ['Ivan Petrov', 'Anna Smirnova', 'Sergey Ivanov', 'Olga Kuznetsova', 'Dmitry Sokolov', 'Maria Popova'],
  banks: [
    { name: 'Sberbank', bins: ['220220', '427638'] },
    { name: 'T-Bank', bins: ['553691', '220070'] },
    { name: 'Alfa-Bank', bins: ['415428', '220015'] },
    { name: 'VTB', bins: ['220024', '418868'] },
  ],
};

export class FixturesError extends Error {
  constructor(file: string, problems: string[]) {
    super(`Invalid fixtures file ${file}:\n  ${problems.join('\n  ')}`);
    this.name = 'FixturesError';
  }
}

/** Parses and validates a fixtures document; throws a FixturesError naming the file and field. */
export function parseFixtures(text: string, file: string): Fixtures {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    // V8 names the offset for most syntax errors; a truncated file ends at its last character.
    const position = /position (\d+)/.exec(message)?.[1] ?? (/Unexpected end of JSON input/.test(message) ? String(text.trimEnd().length) : undefined);
    const where = position ? (({ line, column }) => ` (line ${line}, column ${column})`)(lineAndColumn(text, Number(position))) : '';
    throw new FixturesError(file, [`not valid JSON${where}: ${message}`]);
  }
  const result = fixturesSchema.safeParse(data);
  if (!result.success) throw new FixturesError(file, describeIssues(result.error));
  return result.data;
}

export function loadFixtures(file: string = BUNDLED_FIXTURES): Fixtures {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new FixturesError(file, [`cannot be read: ${(error as Error).message}`]);
  }
  return parseFixtures(text, file);
}

/** Merchants by id (lowercase), with the requisites pools. */
export class MerchantDirectory {
  readonly pool: RequisitesPool;
  readonly #byId: Map<string, Merchant>;

  constructor(fixtures: Fixtures) {
    this.pool = fixtures.requisites ?? DEFAULT_POOL;
    this.#byId = new Map(fixtures.merchants.map((merchant) => [merchant.id.toLowerCase(), merchant]));
  }

  get(id: string): Merchant | undefined {
    return this.#byId.get(id.toLowerCase());
  }

  list(): Merchant[] {
    return [...this.#byId.values()];
  }

  /** Adds a merchant (a workspace's own, see src/workspaces/); false when the id is taken. */
  add(merchant: Merchant): boolean {
    const id = merchant.id.toLowerCase();
    if (this.#byId.has(id)) return false;
    this.#byId.set(id, merchant);
    return true;
  }
}
