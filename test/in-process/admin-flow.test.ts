import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect } from 'vitest';
import { it } from '../temp-folder.js';
import { verifyCallbackSignature } from '../../src/auth/signature.js';
import type { CallbackEvent } from '../../src/store/callback-records.js';
import { startReceiver, type Receiver } from '../callbacks-receiver.js';
import { DEMO, makeSandbox, p2pBody, type TestSandbox } from '../support.js';

/** What CI does with the manual clock: everything through HTTP, nothing waits on wall time. */
const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setup(options: Parameters<typeof makeSandbox>[0] = {}): Promise<{ t: TestSandbox; r: Receiver }> {
  const r = await startReceiver((request, res) => {
    res.statusCode = verifyCallbackSignature(DEMO.secret, request.body, request.headers['x-signature'] as string) ? 200 : 401;
    res.end();
  });
  cleanups.push(() => r.close());
  const t = await makeSandbox({ clock: 'manual', adminToken: 'ci-token', ...options });
  cleanups.push(() => t.close());
  return { t, r };
}

const admin = (t: TestSandbox, method: string, path: string, body?: unknown) =>
  Promise.resolve(
    t.app.request(`/_sandbox${path}`, {
      method,
      headers: { Authorization: 'Bearer ci-token', ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    }),
  );

describe('create -> admin transition -> callback received', () => {
  it('runs the whole flow with the manual clock', async () => {
    const { t, r } = await setup();
    const created = await t.post('/api/v1/trades/deposit/create', p2pBody({ callback_url: `${r.url}/deposit-callback` }));
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };

    const moved = await admin(t, 'POST', `/trades/${id}/transition`, { state: 'confirmed' });
    expect(moved.status).toBe(200);
    // The attempt is due at once; the advance answers after it ran (whether it or the scheduler started it).
    const advanced = await admin(t, 'POST', '/clock/advance', { by: '0s' });
    expect(advanced.status).toBe(200);

    expect(r.received).toHaveLength(1);
    expect(JSON.parse(r.received[0]!.body)).toMatchObject({ id, state: 'confirmed' });
    const { callbacks } = (await (await admin(t, 'GET', `/callbacks?trade=${id}`)).json()) as { callbacks: CallbackEvent[] };
    expect(callbacks).toEqual([expect.objectContaining({ status: 'delivered', attempts: [expect.objectContaining({ status: 200 })] })]);
  });

  it('runs a scenario timeline and its callback retries through one advance', async ({ folder }) => {
    await writeFile(
      join(folder, 'flow.yaml'),
      [
        'scenarios:',
        '  - name: flow-confirm',
        '    description: Confirmed after 10 minutes; the first callback attempt fails.',
        '    match:',
        '      order: "^flow-"',
        '    timeline:',
        '      - after: 10m',
        '        state: confirmed',
        '    callbacks:',
        '      fail_first: 1',
        '',
      ].join('\n'),
    );
    const { t, r } = await setup({ scenarios: folder });
    const created = await t.post('/api/v1/trades/deposit/create', p2pBody({ order: `flow-${Date.now()}`, callback_url: `${r.url}/cb` }));
    const { id } = (await created.json()) as { id: string };

    await admin(t, 'POST', '/clock/advance', { by: '9m' });
    expect(r.received).toHaveLength(0);
    const advanced = await admin(t, 'POST', '/clock/advance', { by: '2m' });
    expect(await advanced.json()).toMatchObject({ ran: 3 }); // the step, the simulated failure, the retry 1 s later
    expect(r.received.map((q) => q.headers['x-sandbox-attempt'])).toEqual(['2']);
    const detail = (await (await admin(t, 'GET', `/trades/${id}`)).json()) as { trade: { state: string; scenario: string }; callbacks: CallbackEvent[] };
    expect(detail.trade).toMatchObject({ state: 'confirmed', scenario: 'flow-confirm' });
    expect(detail.callbacks[0]!.attempts.map((a) => a.kind)).toEqual(['simulated', 'delivery']);
  });
});
