import { describe, expect, it } from 'vitest';
import { sampleTrade } from '../../test/sample-trade.js';
import { StoreLoader } from './store-loader.js';
import { Table, type Row } from './table.js';

function tables() {
  const record = () => undefined;
  return { trades: new Table<Row>('trades', record), jobs: new Table<Row>('jobs', record), callbacks: new Table<Row>('callbacks', record), meta: new Table<Row>('meta', record) };
}

describe('StoreLoader', () => {
  it('rows that repeat their neighbours’ values load exactly as stored, in every table and after a reset', () => {
    const loaded = tables();
    const loader = new StoreLoader(loaded, 'test://store');
    // The same merchant and state throughout; the order, callback URL and type change from row to row.
    const trades = Array.from({ length: 6 }, (_, i) =>
      sampleTrade(i + 1, { callback_url: i % 2 === 0 ? 'http://shop.test/cb' : 'http://other.test/cb', ...(i === 3 ? { type: 'nspk', scenario: 'sbx-confirm' } : {}) }),
    );
    const jobs = [1, 2, 3].map((n) => ({ id: `job-${n}`, due: n, seq: n, kind: 'transition', trade: trades[0]?.id, data: { state: 'confirmed' } }));
    loader.row('trades', structuredClone(trades[0]));
    loader.reset();
    for (const trade of trades) loader.row('trades', structuredClone(trade));
    for (const job of jobs) loader.row('jobs', structuredClone(job));
    // Meta rows are loose: the same key holds a string in one row, an object or an array in the next.
    const meta = [
      { id: 'a', value: 'x', nested: { list: ['x', 'y'] } },
      { id: 'b', value: { x: 'x' }, nested: 'x' },
      { id: 'c', value: ['x'], nested: { list: 'x' } },
    ];
    for (const row of meta) loader.row('meta', structuredClone(row));
    loader.change({ op: 'put', table: 'trades', record: structuredClone(sampleTrade(7)) });
    loader.finish();
    expect([...loaded.trades.values()]).toEqual([...trades, sampleTrade(7)]);
    expect([...loaded.jobs.values()]).toEqual(jobs);
    expect([...loaded.meta.values()]).toEqual(meta);
  });

  it('refuses a row its schema refuses, in the schema’s words, with the table and the row’s index', () => {
    const loader = new StoreLoader(tables(), 'test://store');
    loader.row('trades', sampleTrade(1));
    loader.row('trades', { ...sampleTrade(2), state: 'lost' });
    expect(() => loader.finish()).toThrow(
      /^The store at test:\/\/store is not a deposit-sandbox store \(trades\[1\]\.state: Invalid option: expected one of "created"\|"ecom"\|"confirmed"\|"canceled"\|"expired"\)/,
    );
  });
});
