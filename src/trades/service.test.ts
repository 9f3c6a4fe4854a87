import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect } from 'vitest';
import { it } from '../../test/temp-folder.js';
import { accepted, DEMO, SECOND } from '../../test/support.js';
import { Refusal } from '../refusals/refusal.js';
import type { Sandbox } from '../sandbox.js';
import { createServer, type Server } from '../server/server.js';
import { createTrade as tryCreateTrade, findTrade } from './service.js';
import type { CreateRequest } from './requests.js';

const createTrade = (...args: Parameters<typeof tryCreateTrade>) => accepted(tryCreateTrade(...args));

const request = (overrides: Partial<CreateRequest> = {}): CreateRequest => ({
  merchant: DEMO.id,
  order: 'order-1',
  amount_cents: 31250,
  amount_currency: 'RUB',
  type: 'any_bank',
  ...overrides,
});

const open: Server[] = [];
async function sandbox(options: Parameters<typeof createServer>[0] = { inMemory: true }): Promise<Sandbox> {
  const server = await createServer(options);
  open.push(server);
  return server.root;
}
afterEach(async () => {
  await Promise.all(open.splice(0).map((server) => server.close()));
});

describe('createTrade', () => {
  it('stores a P2P trade in state created with requisites, rate and a history entry', async () => {
    const s = await sandbox();
    const trade = createTrade(s, request({ customer: 'c-1', callback_url: 'https://shop.example/cb' }));
    expect(trade).toMatchObject({ state: 'created', type: 'any_bank', rate: DEMO.rate, customer: 'c-1', callback_url: 'https://shop.example/cb' });
    expect(trade.history).toEqual([{ from: null, to: 'created', at: trade.created_at, cause: 'create' }]);
    expect(s.store.trades.get(trade.id)).toBe(trade);
  });

  it('stores an ecom trade in state ecom, and takes the cusotmer spelling', async () => {
    const s = await sandbox();
    const trade = createTrade(s, { ...request({ order: 'e-1' }), type: 'ecom', cusotmer: 'payer' });
    expect(trade).toMatchObject({ state: 'ecom', type: 'ecom', customer: 'payer' });
  });

  it('refuses a second trade with the same order for the same merchant with duplicate_order', async () => {
    const s = await sandbox();
    const first = createTrade(s, request());
    const refusal = tryCreateTrade(s, request({ type: 'nspk' }));
    expect(refusal).toBeInstanceOf(Refusal);
    expect(refusal).toMatchObject({ kind: 'invalid', code: 'duplicate_order' });
    expect((refusal as Refusal).message).toContain(first.id);
    expect(s.store.trades.size).toBe(1);
  });

  it('allows the same order for another merchant', async () => {
    const s = await sandbox();
    createTrade(s, request());
    expect(createTrade(s, request({ merchant: SECOND.id })).rate).toBe(SECOND.rate);
  });

  it('with a seed, two fresh sandboxes draw the same ids and requisites', async () => {
    const draw = async () => {
      const s = await sandbox({ inMemory: true, seed: 42 });
      return [createTrade(s, request()), createTrade(s, request({ order: 'order-2', type: 'nspk' }))].map((t) => [t.id, t.requisites]);
    };
    expect(await draw()).toEqual(await draw());
  });

  it('with a seed, a restart on the same data draws past the ids already stored', async ({ folder: data }) => {
    const firstServer = await createServer({ data, seed: 7 });
    const first = firstServer.root;
    const before = createTrade(first, request());
    await firstServer.close();
    const again = await sandbox({ data, seed: 7 });
    const after = createTrade(again, request({ order: 'order-2' }));
    expect(after.id).not.toBe(before.id);
    expect(again.store.trades.size).toBe(2);
    expect(findTrade(again.store, DEMO.id, before.id)?.order).toBe('order-1');
    expect(findTrade(again.store, DEMO.id, after.id)?.order).toBe('order-2');
  });
});

describe('findTrade', () => {
  it("finds the merchant's trade, case-insensitively, and not another merchant's", async () => {
    const s = await sandbox();
    const trade = createTrade(s, request());
    expect(findTrade(s.store, DEMO.id, trade.id)).toBe(trade);
    expect(findTrade(s.store, DEMO.id.toUpperCase(), trade.id.toUpperCase())).toBe(trade);
    expect(findTrade(s.store, SECOND.id, trade.id)).toBeUndefined();
    expect(findTrade(s.store, DEMO.id, '3f2a4b1c-5d6e-4f70-8a9b-0c1d2e3f4a5b')).toBeUndefined();
  });
});

describe('the JSON-file store', () => {
  it('a trade created before a restart is there after it', async ({ folder: data }) => {
    const firstServer = await createServer({ data });
    const first = firstServer.root;
    const trade = createTrade(first, request());
    await first.store.commit();
    await firstServer.close();

    const second = await sandbox({ data });
    expect(findTrade(second.store, DEMO.id, trade.id)).toEqual(trade);
  });

  it('the duplicate-order index survives a restart', async ({ folder: data }) => {
    const firstServer = await createServer({ data });
    const first = firstServer.root;
    createTrade(first, request());
    await firstServer.close();
    const second = await sandbox({ data });
    expect(() => createTrade(second, request())).toThrow(/already exists/);
  });

  it.for([
    ['not JSON', '{"version": 1, "trades": ['],
    ['JSON of another shape', '{"trades": "nope"}'],
    ['a trade missing fields', '{"version": 1, "trades": [{"id": "x"}]}'],
  ] as const)('a corrupt db.json (%s) stops start-up with a clear message and is left byte-identical', async ([, content], { folder: data }) => {
    const file = join(data, 'db.json');
    writeFileSync(file, content);
    const before = readFileSync(file);
    await expect(createServer({ data })).rejects.toThrow(/The store at .*db\.json .*Move the file away to start empty; it is left untouched\./s);
    expect(readFileSync(file).equals(before)).toBe(true);
  });
});
