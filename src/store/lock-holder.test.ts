import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { formerHolder, type Holder } from './lock-holder.js';

const holder = (pid: number, host = hostname()): Holder => ({ pid, hostname: host, since: '' });

describe('formerHolder', () => {
  it("names a container's previous run, not process 1, when the sandbox is process 1 again", () => {
    expect(formerHolder(holder(1), 1)).toBe("the sandbox's previous run in this container (or in an earlier container on this folder: a container runs the sandbox as process 1 each time)");
  });

  it("names an earlier sandbox under this process's own ID outside a container", () => {
    expect(formerHolder(holder(41873), 41873)).toBe("an earlier sandbox that had this process's ID (41873)");
  });

  it('names another process by its ID, and process 1 of another host too', () => {
    expect(formerHolder(holder(41873), 1)).toBe('process 41873');
    expect(formerHolder(holder(1, `${hostname()}-other`), 1)).toBe('process 1');
  });
});
