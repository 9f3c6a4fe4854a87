import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { LineCounter, parseDocument } from 'yaml';
import { describeIssues, lineAndColumn } from '../config/issues.js';
import { describeYamlIssues, formatProblem } from '../config/yaml-issues.js';
import { bankSchema, CYRILLIC_POOL, poolOf, requisitesOptionSchema, requisitesPoolSchema, type RequisitesPool } from './requisite-pools.js';
import { PARSED_ONCE } from '../config/parsed-once.js';

export const BUNDLED_FIXTURES = fileURLToPath(new URL('../../fixtures/merchants.json', import.meta.url));

const merchantText = (what: string) => z.string({ error: `must be ${what}` }).min(8, `must be ${what}`);

export const merchantSchema = z.strictObject({
  id: z.guid({ error: 'must be a UUID such as 6f1c2a9e-3b7d-4c52-9a1e-2d4b8f0c7e51' }),
  name: z.string({ error: 'must be the merchant name, a non-empty string' }).min(1, 'must be a non-empty string'),
  token: merchantText('a string of at least 8 characters (the static X-Auth / X-Token value)'),
  secret: merchantText('a string of at least 8 characters (the HMAC-SHA256 key)'),
  rate: z.number({ error: 'must be a number, e.g. 92.5' }).positive('must be a positive number'),
});

export { bankSchema, requisitesPoolSchema, type RequisitesPool };

export const fixturesSchema = z
  .strictObject({
    /** Lets an editor find a JSON Schema; ignored. */
    $schema: z.string().optional(),
    merchants: z
      .array(merchantSchema, { error: 'must be a list of merchants such as [{"id": ..., "name": ..., "token": ..., "secret": ..., "rate": 92.5}]' })
      .min(1, 'must list at least one merchant'),
    requisites: requisitesOptionSchema.optional(),
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
export type Fixtures = z.infer<typeof fixturesSchema>;

/** The pool requisites are drawn from when a fixtures file names none: Cyrillic names and banks. */
export const DEFAULT_POOL: RequisitesPool = CYRILLIC_POOL;

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
  const result = fixturesSchema.safeParse(data, PARSED_ONCE);
  if (!result.success) throw new FixturesError(file, placedIssues(text, file, result.error));
  return result.data;
}

/**
 * Problems as `file:line:column: field.path: message`. JSON is YAML 1.2, so the yaml parser
 * gives each JSON node's place in the text; without it (it should not happen) the paths alone.
 */
function placedIssues(text: string, file: string, error: z.ZodError): string[] {
  const counter = new LineCounter();
  const doc = parseDocument(text, { lineCounter: counter, uniqueKeys: false });
  if (doc.errors.length > 0) return describeIssues(error);
  return describeYamlIssues(file, doc, counter, error, fixturesSchema).map(formatProblem);
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
    this.pool = poolOf(fixtures.requisites);
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

  /** Removes a workspace's own merchant (a state import replaced them); false when there is none of that id. */
  remove(id: string): boolean {
    return this.#byId.delete(id.toLowerCase());
  }
}
