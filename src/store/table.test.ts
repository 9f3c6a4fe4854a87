import { describe, expect, it } from 'vitest';
import { Table, type Change } from './table.js';

interface Item {
  id: string;
  owner: string;
  name: string;
}

function table() {
  const changes: Change[] = [];
  const items = new Table<Item>(
    'items',
    (change) => changes.push(change),
    (item) => [item.owner.toLowerCase(), item.name],
  );
  return { items, changes };
}

const key = (owner: string, name: string) => [owner.toLowerCase(), name] as const;

describe('Table', () => {
  it('finds rows by id and by their unique key, and records every write', () => {
    const { items, changes } = table();
    items.put({ id: '1', owner: 'AB', name: 'x' });
    items.put({ id: '2', owner: 'ab', name: 'y\u0000z' });
    expect(items.get('1')?.name).toBe('x');
    expect(items.findUnique(...key('Ab', 'x'))?.id).toBe('1');
    expect(items.findUnique(...key('ab', 'y\u0000z'))?.id).toBe('2');
    expect(items.findUnique(...key('ab', 'y'))).toBeUndefined();
    expect(items.findUnique('ab', 'y\u0000')).toBeUndefined();
    expect(changes.map((change) => change.op)).toEqual(['put', 'put']);
  });

  it('a replaced row is found by its new key only; a deleted one by neither', () => {
    const { items, changes } = table();
    items.put({ id: '1', owner: 'a', name: 'old' });
    items.put({ id: '1', owner: 'a', name: 'new' });
    expect(items.findUnique(...key('a', 'old'))).toBeUndefined();
    expect(items.findUnique(...key('a', 'new'))?.id).toBe('1');
    items.delete('1');
    items.delete('missing');
    expect(items.findUnique(...key('a', 'new'))).toBeUndefined();
    expect(items.size).toBe(0);
    expect(changes.at(-1)).toEqual({ op: 'delete', table: 'items', id: '1' });
    expect(changes).toHaveLength(3);
  });

  it('insert adds a row under a new id only, and records it like put', () => {
    const { items, changes } = table();
    expect(items.insert({ id: '1', owner: 'a', name: 'x' })).toBe(true);
    expect(items.insert({ id: '1', owner: 'a', name: 'y' })).toBe(false);
    expect(items.get('1')?.name).toBe('x');
    expect(items.findUnique(...key('a', 'y'))).toBeUndefined();
    expect(changes).toEqual([{ op: 'put', table: 'items', record: { id: '1', owner: 'a', name: 'x' } }]);
  });

  it('load, unload and drop change the rows and indexes without recording anything', () => {
    const { items, changes } = table();
    items.load({ id: '1', owner: 'a', name: 'x' });
    items.load({ id: '2', owner: 'a', name: 'y' });
    items.unload('1');
    expect([...items.values()].map((item) => item.id)).toEqual(['2']);
    expect(items.findUnique(...key('a', 'x'))).toBeUndefined();
    items.drop();
    expect(items.size).toBe(0);
    expect(items.findUnique(...key('a', 'y'))).toBeUndefined();
    expect(changes).toEqual([]);
  });
});
