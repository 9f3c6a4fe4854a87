/**
 * Switching the clock mode across a restart on the same data folder: sandbox time never
 * goes backwards, so pending steps keep their distance and new trades never predate old ones.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect } from 'vitest';
import { folderIn, it } from '../temp-folder.js';
import { createApp } from '../../src/app.js';
import { createServer, type Server } from '../../src/server/server.js';
import { DEMO, p2pBody } from '../support.js';

const open: Server[] = [];
afterEach(async () => {
  for (const server of open.splice(0)) await server.close();
});

const TEN_DAYS = 10 * 24 * 3_600_000;

async function start(data: string, scenarios: string, clock: 'real' | 'manual') {
  const server = await createServer({ data, scenarios, clock });
  const sandbox = server.root;
  open.push(server);
  const app = createApp(server);
  const create = async (order: string) => {
    const res = await app.request('/api/v1/trades/deposit/create', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Auth': DEMO.token },
      body: JSON.stringify(p2pBody({ order })),
    });
    expect(res.status).toBe(201);
    return ((await res.json()) as { id: string }).id;
  };
  return { server, sandbox, app, create };
}

describe('clock mode switch across a restart', () => {
  it('manual advanced 10 days, then real: time carries on from the manual clock and a 5 s step stays 5 s away', async ({ folder }) => {
    const data = folderIn(folder);
    const scenarios = folderIn(folder);
    writeFileSync(
      join(scenarios, 'later.yaml'),
      'scenarios:\n  - name: later\n    description: Confirmed 5 s after creation.\n    match:\n      order: "^later-"\n    timeline:\n      - after: 5s\n        state: confirmed\n',
    );

    const manual = await start(data, scenarios, 'manual');
    await manual.sandbox.scheduler.advance(TEN_DAYS);
    const id = await manual.create('later-1');
    const stoppedAt = manual.sandbox.clock.now();
    const createdAt = manual.sandbox.store.trades.get(id)!.created_at;
    await manual.server.close();
    open.splice(open.indexOf(manual.server), 1);

    const real = await start(data, scenarios, 'real');
    const now = real.sandbox.clock.now();
    expect(now).toBeGreaterThanOrEqual(stoppedAt);
    expect(real.sandbox.clock.aheadOfWall()).toBeGreaterThan(TEN_DAYS - 3_600_000);
    const clock = (await (await real.app.request('/_sandbox/clock')).json()) as { mode: string; now: string; next_due: string };
    expect(clock.mode).toBe('real');
    const wait = Date.parse(clock.next_due) - Date.parse(clock.now);
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(5_000);
    expect(real.sandbox.store.trades.get(id)!.state).toBe('created');

    const later = await real.create('after-restart-1');
    expect(Date.parse(real.sandbox.store.trades.get(later)!.created_at)).toBeGreaterThanOrEqual(Date.parse(createdAt));
  });
});
