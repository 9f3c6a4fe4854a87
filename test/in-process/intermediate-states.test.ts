/**
 * A provider profile with an intermediate state (states.intermediate: [processing],
 * docs/provider-profile.md#intermediate-states), with a manual clock and loopback receivers:
 * the admin transition and its 409s, the provider's GET, a callback for each change, scenarios
 * naming the state (and refused when the profile lacks it), a store that keeps the state over a
 * restart and a profile change, and the fuzzer catching a receiver that keeps whatever came last.
 */
import { writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect } from 'vitest';
import { fuzzReceiver } from '../../src/callback-fuzzer/fuzz-receiver.js';
import { parseProfile } from '../../src/profile/load-profile.js';
import { startSandbox, type RunningSandbox, type SandboxOptions } from '../../src/programmatic/start-sandbox.js';
import { startReceiver, type Receiver } from '../callbacks-receiver.js';
import { DEMO, p2pBody, SECOND } from '../support.js';
import { it } from '../temp-folder.js';

/** The profile of docs/provider-profile.md#intermediate-states. */
const PROFILE = `
name: slow-bank
extends: sandbox
states:
  intermediate: [processing]
`.trimStart();
const ADMIN = { 'Content-Type': 'application/json' };

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function receiver(): Promise<Receiver> {
  const r = await startReceiver();
  cleanups.push(() => r.close());
  return r;
}

async function sandbox(options: SandboxOptions): Promise<RunningSandbox> {
  const s = await startSandbox({ clock: 'manual', ...options });
  cleanups.push(() => s.close());
  return s;
}

/** The profile file in `folder`. */
function profileFile(folder: string, text = PROFILE): string {
  const file = join(folder, 'slow-bank.yaml');
  writeFileSync(file, text);
  return file;
}

async function create(s: RunningSandbox, body: Record<string, unknown> = {}, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${s.url}/api/v1/trades/deposit/create`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Auth': DEMO.token, ...headers }, body: JSON.stringify(p2pBody(body)) });
}

async function created(s: RunningSandbox, body: Record<string, unknown> = {}, headers: Record<string, string> = {}): Promise<string> {
  const res = await create(s, body, headers);
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

/** What POST /_sandbox/trades/:id/transition answers: the trade, or the error. */
interface TransitionAnswer {
  trade?: { state: string; allowed: string[] };
  error?: { code: string; message: string; allowed?: string[] };
}

/** POST /_sandbox/trades/:id/transition (a state the typed client's TradeState does not name): the status and the body. */
async function transition(s: RunningSandbox, id: string, state: string): Promise<{ status: number; body: TransitionAnswer }> {
  const res = await fetch(`${s.url}/_sandbox/trades/${id}/transition`, { method: 'POST', headers: ADMIN, body: JSON.stringify({ state }) });
  return { status: res.status, body: (await res.json()) as TransitionAnswer };
}

/** The provider's GET of a trade: its state. */
async function stateOf(s: RunningSandbox, id: string): Promise<string> {
  const res = await fetch(`${s.url}/api/v1/trades/${DEMO.id}/${id}`, { headers: { 'X-Token': DEMO.token } });
  expect(res.status).toBe(200);
  return ((await res.json()) as { state: string }).state;
}

const states = (r: Receiver) => r.received.map((request) => (JSON.parse(request.body) as { state: string }).state);

describe('a profile with an intermediate state', () => {
  it('the admin moves a trade through it: GET shows it, the 409s list it, each change is a callback in order', async ({ folder }) => {
    const r = await receiver();
    const s = await sandbox({ profile: profileFile(folder) });
    const id = await created(s, { callback_url: `${r.url}/cb` });
    expect((await s.admin.trade(id)).trade.allowed).toEqual(['processing', 'confirmed', 'canceled', 'expired']);

    const processing = await transition(s, id, 'processing');
    expect(processing.status).toBe(200);
    expect(processing.body.trade).toMatchObject({ state: 'processing', allowed: ['confirmed', 'canceled', 'expired'] });
    expect(await stateOf(s, id)).toBe('processing');

    const again = await transition(s, id, 'processing');
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ code: 'transition_not_allowed', allowed: ['confirmed', 'canceled', 'expired'] });
    const unknown = await transition(s, id, 'review');
    expect(unknown.status).toBe(422);
    expect(unknown.body.error?.message).toBe('Unknown state "review". States are created, ecom, processing, confirmed, canceled, expired.');

    expect((await transition(s, id, 'confirmed')).status).toBe(200);
    await s.admin.advanceClock(0);
    await r.waitFor(2);
    expect(states(r)).toEqual(['processing', 'confirmed']);
    const list = await fetch(`${s.url}/_sandbox/trades?state=confirmed`).then((res) => res.json() as Promise<{ total: number }>);
    expect(list.total).toBe(1);
    expect((await fetch(`${s.url}/_sandbox/trades?state=processing`)).status).toBe(200);
    expect((await fetch(`${s.url}/_sandbox/trades?state=review`)).status).toBe(422);
  });

  it('a confirmation asked of a waiting trade passes the intermediate state: two history entries, two callbacks', async ({ folder }) => {
    const r = await receiver();
    const s = await sandbox({ profile: profileFile(folder) });
    const id = await created(s, { callback_url: `${r.url}/cb` });
    await s.admin.transition(id, 'confirmed', 'paid by QA');
    await s.admin.advanceClock(0);
    await r.waitFor(2);
    const detail = await s.admin.trade(id);
    expect(detail.history.map((entry) => [entry.from, entry.to, entry.cause])).toEqual([
      [null, 'created', 'create'],
      ['created', 'processing', 'admin'],
      ['processing', 'confirmed', 'admin'],
    ]);
    expect(detail.callbacks.map((event) => [event.seq, event.state, event.status])).toEqual([
      [1, 'processing', 'delivered'],
      [2, 'confirmed', 'delivered'],
    ]);
    expect(states(r)).toEqual(['processing', 'confirmed']);
    // The report counts its rows per final state, as ever: the confirmed callback acknowledged.
    const report = (await s.admin.report()) as { coverage: Array<{ merchant: string; rows: Array<{ id: string; status: string; trade?: string }> }> };
    const rows = report.coverage.find((m) => m.merchant === DEMO.id)?.rows ?? [];
    expect(rows.find((row) => row.id === 'callback.confirmed')).toMatchObject({ status: 'handled', trade: id });
    expect(rows.filter((row) => row.id.startsWith('callback.') && row.status !== 'not_seen').map((row) => row.id)).toEqual(['callback.confirmed']);
  });

  it('under send_on final-only, only the final state is called back', async ({ folder }) => {
    const r = await receiver();
    const s = await sandbox({ profile: profileFile(folder, `${PROFILE}callbacks:\n  send_on: final-only\n`) });
    const id = await created(s, { callback_url: `${r.url}/cb` });
    await s.admin.transition(id, 'confirmed');
    await s.admin.advanceClock(0);
    await r.waitFor(1);
    expect(states(r)).toEqual(['confirmed']);
    expect((await s.admin.trade(id)).callbacks.map((event) => event.state)).toEqual(['confirmed']);
  });

  it('a scenario may name it; an upload naming a state the profile lacks is refused, and so is a create once the profile no longer has it', async ({ folder }) => {
    const r = await receiver();
    const s = await sandbox({ profile: profileFile(folder) });
    const scenarios =
      'scenarios:\n  - name: slow-bank-flow\n    description: Paid, processed, then confirmed.\n    timeline:\n      - after: 5s\n        state: processing\n      - after: 1m\n        state: confirmed\n';
    const put = (text: string, path = '/_sandbox/scenarios') => fetch(`${s.url}${path}`, { method: 'PUT', headers: { 'Content-Type': 'application/yaml' }, body: text });
    const accepted = await put(scenarios);
    expect(accepted.status, await accepted.clone().text()).toBe(200);
    const id = await created(s, { callback_url: `${r.url}/cb` }, { 'X-Sandbox-Scenario': 'slow-bank-flow' });
    await s.admin.advanceClock('5s');
    expect(await stateOf(s, id)).toBe('processing');
    await s.admin.advanceClock('1m');
    await r.waitFor(2);
    expect(states(r)).toEqual(['processing', 'confirmed']);

    const refused = await put(scenarios.replace('state: processing', 'state: review'));
    expect(refused.status).toBe(422);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toContain(
      'PUT /_sandbox/scenarios:6:16: scenarios[0].timeline[0].state: must be one of created, ecom, processing, confirmed, canceled, expired; got "review"',
    );

    // The workspace's own profile, without the intermediate state: the upload stays, its creates are refused.
    expect((await put('name: plain\nextends: sandbox\n', '/_sandbox/profile')).status).toBe(200);
    const res = await create(s, {}, { 'X-Sandbox-Scenario': 'slow-bank-flow' });
    expect(res.status).toBe(422);
    const error = ((await res.json()) as { error: { code: string; message: string } }).error;
    expect(error.code).toBe('scenario_state_unknown');
    expect(error.message).toMatch(/^Scenario "slow-bank-flow" moves the trade to "processing" \(timeline\[0\]\), a state the provider profile "plain" in force does not have/);
  });

  it('a store written with the state loads after a restart, also under a profile that no longer has it, where the trade can still be ended', async ({ folder }) => {
    const data = join(folder, 'data');
    const file = profileFile(folder);
    const first = await startSandbox({ clock: 'manual', data, profile: file });
    const id = await created(first, { callback_url: 'http://127.0.0.1:9/cb' });
    expect((await transition(first, id, 'processing')).status).toBe(200);
    await first.close();

    const again = await startSandbox({ clock: 'manual', data, profile: file });
    expect(await stateOf(again, id)).toBe('processing');
    expect((await again.admin.trade(id)).callbacks.map((event) => event.state)).toEqual(['processing']);
    await again.close();

    const plain = await sandbox({ data });
    expect(await stateOf(plain, id)).toBe('processing');
    expect((await plain.admin.trade(id)).trade.allowed).toEqual(['confirmed', 'canceled', 'expired']);
    expect((await transition(plain, id, 'processing')).status).toBe(422);
    expect((await transition(plain, id, 'canceled')).body.trade).toMatchObject({ state: 'canceled', allowed: [] });
  });
});

describe('the fuzzer under a profile with an intermediate state', () => {
  type Handle = (request: unknown, ledger: unknown) => number | Promise<number>;
  const example = async <T>(name: string): Promise<T> => (await import(new URL(`../../examples/receivers/${name}.mjs`, import.meta.url).href)) as T;
  const servers: Server[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
  });

  const fuzz = async (name: string, runs: number) => {
    const { createReceiver } = await example<{ createReceiver: (handle: Handle) => Server }>('receiver-kit');
    const { handle } = await example<{ handle: Handle }>(name);
    const server = createReceiver(handle);
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return fuzzReceiver({
      url: `${base}/callback`,
      probe: `${base}/probe`,
      merchant: { id: DEMO.id, secret: DEMO.secret },
      otherSecret: SECOND.secret,
      publicUrl: 'http://127.0.0.1:4242',
      timeoutMs: 5_000,
      seed: 42,
      runs,
      profile: parseProfile(PROFILE, 'slow-bank.yaml'),
    });
  };

  it('catches a receiver that stores whatever state comes last: the intermediate callback arrived after the final one', async () => {
    const report = await fuzz('state-regression', 100);
    expect(report.passed).toBe(false);
    const [violation] = report.failure!.violations;
    expect(violation?.kind).toBe('state_back');
    expect(violation?.cause).toMatch(
      /^the state of T\d went back from confirmed to processing: the callback for processing arrived after the one for confirmed \(a trade's callbacks can arrive out of order\)/,
    );
    const steps = report.failure!.schedule.steps;
    expect(steps.findIndex((step) => step.state === undefined)).toBeLessThan(steps.findIndex((step) => step.state === 'processing'));
  });

  it('raises no false alarm on the correct receiver', async () => {
    const report = await fuzz('correct', 300);
    expect(report.failure?.violations).toBeUndefined();
    expect(report.passed).toBe(true);
  });
});
