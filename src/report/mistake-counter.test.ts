import { describe, expect, it } from 'vitest';
import { codedText } from '../i18n/coded-text.js';
import { MistakeCounter } from './mistake-counter.js';

const M = '6f1c2a9e-3b7d-4c52-9a1e-2d4b8f0c7e51';

describe('MistakeCounter reads', () => {
  it('reading a trade is never a mistake, however often: sustained polling is a note', () => {
    const counter = new MistakeCounter();
    for (let i = 0; i < 60; i++) counter.read(M, 'a', i); // 60 reads within a minute: nothing
    expect(counter.report()).toMatchObject({ total: 0, merchants: [], notes: [] });
    counter.read(M, 'A', 61); // the 61st (ids in either case are one trade)
    const report = counter.report();
    expect(report.total).toBe(0);
    expect(report.merchants).toEqual([]);
    expect(report.notes).toMatchObject([{ merchant: M, id: 'sustained_polling', trade: 'a', count: 1 }]);
  });

  it('forgetReads forgets every read', () => {
    const counter = new MistakeCounter();
    for (let i = 0; i < 60; i++) counter.read(M, 'a', i);
    counter.forgetReads();
    counter.read(M, 'a', 100);
    expect(counter.report().notes).toEqual([]);
  });
});

describe('MistakeCounter coverage details', () => {
  const rowOf = (counter: MistakeCounter, id: string) => counter.report(() => 'Demo Shop').coverage[0]?.rows.find((row) => row.id === id);

  it('keeps a coded detail as its English text with its code and values beside it; a plain detail has no code', () => {
    const counter = new MistakeCounter();
    counter.cover(M, 'create.lost_answer', 'seen', 't-1', codedText('coverage.lost_answer.lost', { order: 'sbx-lost-1' }));
    counter.cover(M, 'callback.confirmed', 'wrong', 't-2', 'a cause written without a code');
    expect(rowOf(counter, 'create.lost_answer')).toEqual({
      id: 'create.lost_answer',
      status: 'seen',
      trade: 't-1',
      detail: 'the answer to order sbx-lost-1 was lost on purpose; retry with the same order',
      detail_code: 'coverage.lost_answer.lost',
      detail_params: { order: 'sbx-lost-1' },
    });
    expect(rowOf(counter, 'callback.confirmed')).toEqual({ id: 'callback.confirmed', status: 'wrong', trade: 't-2', detail: 'a cause written without a code' });
  });

  it('a counter absorbed into another keeps the codes of its details, and a higher status wins', () => {
    const kept = new MistakeCounter();
    kept.cover(M, 'callback.confirmed', 'handled', 't-1', codedText('coverage.acknowledged'));
    const other = new MistakeCounter();
    other.cover(M, 'callback.confirmed', 'wrong', 't-2', codedText('coverage.never_acknowledged', { count: 6 }));
    kept.absorb(other);
    expect(rowOf(kept, 'callback.confirmed')).toEqual({
      id: 'callback.confirmed',
      status: 'wrong',
      trade: 't-2',
      detail: 'never acknowledged: 6 attempts failed',
      detail_code: 'coverage.never_acknowledged',
      detail_params: { count: 6 },
    });
  });

  it('says a sustained-polling note with its code and values', () => {
    const counter = new MistakeCounter();
    for (let i = 0; i <= 60; i++) counter.read(M, 'a', i);
    expect(counter.report().notes[0]).toMatchObject({ detail_code: 'note.sustained_polling', detail_params: { reads: 60, trade: 'a' } });
  });
});
