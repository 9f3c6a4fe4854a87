import { afterEach, describe, expect, it } from 'vitest';
import { startReceiver, type Receiver } from '../../test/callbacks-receiver.js';
import { DEMO } from '../../test/support.js';
import { signatureHeader, signRequest } from '../profile/sign-request.js';
import type { Profile } from '../profile/profile-schema.js';
import { startSandbox, type RunningSandbox } from './start-sandbox.js';

let running: RunningSandbox | undefined;
let receiver: Receiver | undefined;
afterEach(async () => {
  await running?.close();
  await receiver?.close();
});

async function create(base: string, order: string, callback_url: string, token: string = DEMO.token, merchant: string = DEMO.id) {
  const res = await fetch(`${base}/api/v1/trades/deposit/create`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Auth': token },
    body: JSON.stringify({ merchant, order, amount_cents: 50_000, amount_currency: 'RUB', type: 'nspk', callback_url }),
  });
  expect(res.status).toBe(201);
  return (await res.json()) as { id: string; payment_data: { url: string } };
}

describe('sandbox.workspace()', () => {
  it('gives each worker its own url, admin, clock and callbacks.waitFor', async () => {
    receiver = await startReceiver();
    running = await startSandbox({ clock: 'manual' });
    const one = running.workspace('worker-1');
    const two = running.workspace('worker-2');
    expect(one.url).toBe(`${running.url}/w/worker-1`);
    const a = await create(one.url, 'sbx-confirm-7', `${receiver.url}/one`);
    const b = await create(two.url, 'sbx-confirm-7', `${receiver.url}/two`);
    expect(a.payment_data.url).toBe(`${one.url}/pay/${a.id}`);
    expect((await one.admin.advanceClock('10s')).ran).toBeGreaterThan(0);
    const event = await one.callbacks.waitFor({ trade: a.id });
    expect(event.url).toBe(`${receiver.url}/one`);
    expect(receiver.received.map((r) => [r.path, r.headers['x-sandbox-workspace']])).toEqual([['/one', 'worker-1']]);
    // worker-2's clock did not move: its trade still waits.
    expect((await two.admin.trade(b.id)).trade.state).toBe('created');
    await expect(two.callbacks.waitFor({ trade: b.id }, { timeout: 50 })).rejects.toThrow(/waited|within|50/);
    await two.admin.advanceClock('10s');
    expect((await two.callbacks.waitFor({ trade: b.id })).url).toBe(`${receiver.url}/two`);
  });

  it('adds merchants and scenarios to one workspace, and removes it', async () => {
    running = await startSandbox();
    const ws = running.workspace();
    expect(ws.name).toMatch(/^ws-[0-9a-f]{8}$/);
    const merchant = await ws.addMerchant({ name: 'Mine' });
    expect(merchant.secret.length).toBeGreaterThan(8);
    receiver = await startReceiver();
    await create(ws.url, 'x-1', `${receiver.url}/cb`, merchant.token, merchant.id);
    const scenarios = await ws.setScenarios('scenarios:\n  - name: mine\n    description: Mine.\n    match:\n      order: "^mine-"\n');
    expect(scenarios[0]?.name).toBe('mine');
    expect((await running.admin.scenarios()).map((s) => s.name)).not.toContain('mine');
    await ws.delete();
    expect((await running.admin.request<{ workspaces: Array<{ name: string }> }>('GET', '/workspaces')).workspaces.map((w) => w.name)).toEqual(['default']);
    expect(() => running!.workspace('no/slash')).toThrow(/1 to 64 characters/);
  });

  it("signs under a workspace's own profile, set by a built-in's name or a file's text, and goes back to the server's", async () => {
    running = await startSandbox({ auth: 'signature', profile: 'md5-colon' });
    expect(running.profile.name).toBe('md5-colon');
    const ws = running.workspace('provider-b');
    const profile = await ws.setProfile('hmac-sha512-base64');
    expect(profile).toMatchObject({ name: 'hmac-sha512-base64', requests: { signature: { algorithm: 'hmac-sha512', encoding: 'base64', header: 'X-Signature' } } });
    const body = { merchant: DEMO.id, order: 'o-b', amount_cents: 100, amount_currency: 'RUB', type: 'nspk' };
    const send = (base: string, signed: Profile) =>
      fetch(`${base}/api/v1/trades/deposit/create`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Auth': DEMO.token, [signatureHeader(signed, 'create')]: signRequest(signed, DEMO.secret, 'create', body) },
        body: JSON.stringify(body),
      });
    expect((await send(ws.url, profile)).status).toBe(201);
    // The server's profile still holds elsewhere: default follows md5-colon.
    expect((await send(running.url, running.profile)).status).toBe(201);
    expect((await send(running.url, profile)).status).toBe(401);

    const own = await ws.setProfile('name: my-provider\nextends: sandbox\nrequests:\n  signature:\n    algorithm: sha1\n    secret: first-slot\n');
    expect(own.requests.signature).toEqual({ algorithm: 'sha1', separator: '::', secret: 'first-slot', encoding: 'hex' });
    await expect(ws.setProfile('name: broken\nextends: sandbox\nrequests:\n  signature:\n    algorithm: sha-1\n')).rejects.toThrow(
      /provider-b\/_sandbox\/profile:5:16: requests\.signature\.algorithm: .*did you mean sha1\?/,
    );
    expect((await ws.setProfile(null)).name).toBe('md5-colon');
  });
});
