import { describe, expect, it } from 'vitest';
import { type IdleClosable, OpenJournals } from './open-journals.js';

function journal(name: string, closed: string[], busy = () => false): IdleClosable {
  return {
    closeIdle: () => {
      if (busy()) return false;
      closed.push(name);
      return true;
    },
  };
}

describe('OpenJournals', () => {
  it('closes the least recently used beyond the bound, skipping busy ones and the one just used', () => {
    const closed: string[] = [];
    let busyA = true;
    const open = new OpenJournals(2);
    const a = journal('a', closed, () => busyA);
    const b = journal('b', closed);
    const c = journal('c', closed);
    open.used(a);
    open.used(b);
    open.used(c);
    // a is oldest but busy: b goes instead.
    expect(closed).toEqual(['b']);
    expect(open.size).toBe(2);
    busyA = false;
    open.used(c);
    open.used(b);
    expect(closed).toEqual(['b', 'a']);
    open.closed(c);
    expect(open.size).toBe(1);
  });
});
