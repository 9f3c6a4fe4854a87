/**
 * Callbacks under a provider profile (docs/callbacks.md#under-a-provider-profile), against a
 * loopback receiver with a manual clock: each signature scheme checked by a verifier written apart
 * from src/profile (node:crypto, and the standardwebhooks package), each acknowledgement rule, when
 * callbacks are sent, the X-Sandbox-* helpers, a profile replaced between two attempts, and
 * --callback-retries over the profile's retries.
 */
import { createHash, createHmac } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { IncomingHttpHeaders } from 'node:http';
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect } from 'vitest';
import { it } from '../temp-folder.js';
import { startSandbox, type RunningSandbox, type SandboxOptions } from '../../src/programmatic/start-sandbox.js';
import { verifyCallbackSignature } from '../../src/auth/signature.js';
import { setWorkspaceProfile } from '../../src/profile/workspace-profile.js';
import { reportJunit } from '../../src/report/report-formats.js';
import type { CallbackEvent } from '../../src/store/callback-records.js';
import { startReceiver, type Receiver } from '../callbacks-receiver.js';
import { DEMO, makeSandbox, p2pBody, type TestSandbox } from '../support.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function receiver(respond?: Receiver['respond']): Promise<Receiver> {
  const r = await startReceiver(respond);
  cleanups.push(() => r.close());
  return r;
}

/** A receiver that answers 200 with this body. */
const answering = (body: string) => receiver((_request, res) => void res.end(body));

async function sandbox(options: SandboxOptions): Promise<RunningSandbox> {
  const s = await startSandbox({ clock: 'manual', ...options });
  cleanups.push(() => s.close());
  return s;
}

async function inProcess(options: Parameters<typeof makeSandbox>[0]): Promise<TestSandbox> {
  const t = await makeSandbox({ clock: 'manual', ...options });
  cleanups.push(() => t.close());
  return t;
}

/** Creates a P2P trade with a callback_url (X-Auth: the token) and returns its id. */
async function create(s: RunningSandbox, callbackUrl: string, order?: string, prefix = ''): Promise<string> {
  const res = await fetch(`${s.url}${prefix}/api/v1/trades/deposit/create`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Auth': DEMO.token },
    body: JSON.stringify(p2pBody({ callback_url: callbackUrl, ...(order !== undefined ? { order } : {}) })),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

/** Creates a trade, confirms it and runs its first attempt. */
async function confirmed(s: RunningSandbox, r: Receiver, order?: string): Promise<string> {
  const id = await create(s, `${r.url}/cb`, order);
  await s.admin.transition(id, 'confirmed');
  await s.admin.advanceClock(0);
  return id;
}

const eventsOf = async (s: RunningSandbox, trade: string): Promise<CallbackEvent[]> => (await s.admin.trade(trade)).callbacks;
const sandboxHeaders = (headers: IncomingHttpHeaders) => Object.keys(headers).filter((name) => name.startsWith('x-sandbox-'));
/** The headers the sandbox adds besides Host, Connection and the body's, in the order they were sent. */
const sentHeaders = (headers: IncomingHttpHeaders) => Object.keys(headers).filter((name) => !['host', 'connection', 'content-type', 'content-length', 'user-agent'].includes(name));

// Verifiers written apart from src/profile: what a merchant's receiver would do.

/** A request-style signature: the body's seven top-level values as written, the secret as the last slot, joined, hashed. */
function md5ColonSignature(body: string, secret: string): string {
  const trade = JSON.parse(body) as Record<string, unknown>;
  const values = ['id', 'order', 'merchant', 'state', 'amount_cents', 'amount_currency', 'rate'].map((key) => String(trade[key]));
  return createHash('md5')
    .update([...values, secret].join(':'), 'utf8')
    .digest('hex');
}

function hmacSha512Base64Signature(body: string, secret: string): string {
  const trade = JSON.parse(body) as Record<string, unknown>;
  const values = ['id', 'order', 'merchant', 'state', 'amount_cents', 'amount_currency', 'rate'].map((key) => String(trade[key]));
  return createHmac('sha512', secret).update(values.join('::'), 'utf8').digest('base64');
}

/** The Standard Webhooks key of a plain secret: whsec_ and the base64 of its bytes. */
const webhook = (secret: string) => new Webhook(`whsec_${Buffer.from(secret, 'utf8').toString('base64')}`);
const verifiesStandardWebhooks = (secret: string, body: string, headers: IncomingHttpHeaders): boolean => {
  try {
    webhook(secret).verify(body, headers as Record<string, string>);
    return true;
  } catch {
    return false;
  }
};

describe('callback signatures under each scheme', () => {
  it('sandbox: X-Signature, hex HMAC-SHA256 of the body, and the X-Sandbox-* helpers, as before', async () => {
    const r = await receiver();
    const s = await sandbox({ profile: 'sandbox' });
    await confirmed(s, r);
    const [request] = r.received;
    expect(sentHeaders(request!.headers)).toEqual(['x-signature', 'x-sandbox-event-id', 'x-sandbox-attempt']);
    expect(verifyCallbackSignature(DEMO.secret, request!.body, request!.headers['x-signature'] as string)).toBe(true);
  });

  it('standard-webhooks: callbacks still verify after the manual clock was moved hours ahead', async () => {
    const r = await answering('{"code":0}');
    const s = await sandbox({ profile: 'standard-webhooks' });
    await s.admin.advanceClock('3h');
    await confirmed(s, r);
    const [request] = r.received;
    // The library refuses a timestamp more than five minutes from its own (wall) clock.
    expect(verifiesStandardWebhooks(DEMO.secret, request!.body, request!.headers)).toBe(true);
  });

  it('standard-webhooks: webhook-id, webhook-timestamp, webhook-signature, verified by the standardwebhooks package', async () => {
    const r = await answering('{"code":0}');
    const s = await sandbox({ profile: 'standard-webhooks' });
    const id = await confirmed(s, r);
    const [request] = r.received;
    const [event] = await eventsOf(s, id);
    expect(sentHeaders(request!.headers)).toEqual(['webhook-id', 'webhook-timestamp', 'webhook-signature', 'x-sandbox-event-id', 'x-sandbox-attempt']);
    expect(request!.headers['webhook-id']).toBe(event!.id);
    // The wall clock's seconds, whatever the sandbox clock says (a receiver checks it against its own clock).
    const sent = Number(request!.headers['webhook-timestamp']);
    expect(Math.abs(sent - Date.now() / 1000)).toBeLessThan(60);
    expect(verifiesStandardWebhooks(DEMO.secret, request!.body, request!.headers)).toBe(true);
    expect(verifiesStandardWebhooks('another-secret', request!.body, request!.headers)).toBe(false);
    expect(event!.status).toBe('delivered');
  });

  it('request-style (md5-colon): X-Signature is the MD5 of the values and the secret joined with ":"', async () => {
    const r = await answering('OK');
    const s = await sandbox({ profile: 'md5-colon' });
    const id = await confirmed(s, r);
    const [request] = r.received;
    expect(sentHeaders(request!.headers)).toEqual(['x-signature', 'x-sandbox-event-id', 'x-sandbox-attempt']);
    expect(request!.headers['x-signature']).toBe(md5ColonSignature(request!.body, DEMO.secret));
    expect((await eventsOf(s, id))[0]!.status).toBe('delivered');
  });

  it('request-style (hmac-sha512-base64): the signature in requests.signature.header, base64 HMAC-SHA512', async () => {
    const r = await receiver();
    const s = await sandbox({ profile: 'hmac-sha512-base64' });
    await confirmed(s, r);
    const [request] = r.received;
    expect(request!.headers['x-signature']).toBe(hmacSha512Base64Signature(request!.body, DEMO.secret));
  });

  it('none: no signature header at all, the helpers still there', async ({ folder }) => {
    const file = join(folder, 'unsigned.yaml');
    writeFileSync(file, 'name: unsigned\nextends: sandbox\ncallbacks:\n  signature: none\n');
    const r = await receiver();
    const s = await sandbox({ profile: file });
    const id = await confirmed(s, r);
    expect(sentHeaders(r.received[0]!.headers)).toEqual(['x-sandbox-event-id', 'x-sandbox-attempt']);
    expect((await eventsOf(s, id))[0]!.status).toBe('delivered');
  });
});

describe('the scenario bad_signature under each scheme', () => {
  it('standard-webhooks: a copy whose webhook-signature does not verify, then the right one', async () => {
    const r = await answering('{"code":0}');
    const s = await sandbox({ profile: 'standard-webhooks' });
    await create(s, `${r.url}/cb`, 'sbx-badsig-sw-1');
    await s.admin.advanceClock('5s');
    expect(r.received).toHaveLength(2);
    const [forged, real] = r.received;
    expect(forged!.headers['webhook-id']).toBe(real!.headers['webhook-id']);
    expect(verifiesStandardWebhooks(DEMO.secret, forged!.body, forged!.headers)).toBe(false);
    expect(verifiesStandardWebhooks(DEMO.secret, real!.body, real!.headers)).toBe(true);
  });

  it('request-style: a copy with a wrong signature in the profile header; accepting it is flagged with that header', async () => {
    const r = await answering('OK');
    const s = await sandbox({ profile: 'md5-colon' });
    const id = await create(s, `${r.url}/cb`, 'sbx-badsig-md5-1');
    await s.admin.advanceClock('5s');
    const [forged, real] = r.received;
    expect(forged!.headers['x-signature']).not.toBe(md5ColonSignature(forged!.body, DEMO.secret));
    expect(real!.headers['x-signature']).toBe(md5ColonSignature(real!.body, DEMO.secret));
    const [event] = await eventsOf(s, id);
    expect(event!.attempts[0]).toMatchObject({ kind: 'bad_signature', status: 200, response: 'OK' });
    expect(event!.attempts[0]!.warning).toMatch(/^The receiver answered 200 to a callback whose X-Signature is wrong\. It must verify X-Signature \(MD5, hex of the body's id, order/);
  });

  it('none: nothing to spoil, so no copy is sent, the log says why, and the callback goes out as normal', async ({ folder }) => {
    const file = join(folder, 'unsigned.yaml');
    writeFileSync(file, 'name: unsigned\nextends: sandbox\ncallbacks:\n  signature: none\n');
    const r = await receiver();
    const s = await sandbox({ profile: file });
    const id = await create(s, `${r.url}/cb`, 'sbx-badsig-none-1');
    await s.admin.advanceClock('5s');
    expect(r.received).toHaveLength(1);
    const [event] = await eventsOf(s, id);
    expect(event!.status).toBe('delivered');
    expect(event!.attempts.map((a) => [a.kind, a.status])).toEqual([
      ['bad_signature', null],
      ['delivery', 200],
    ]);
    expect(event!.attempts[0]!.error).toMatch(/profile "unsigned" sends callbacks unsigned \(callbacks\.signature: none\), so the scenario's bad_signature has no signature to spoil/);
  });
});

describe('acknowledgement under each rule', () => {
  it('ok-text: "ok\\n" is a failed attempt with the reason, retried; "OK" delivers', async () => {
    const answers = ['ok\n', 'OK'];
    const r = await receiver((_request, res) => void res.end(answers.length > 1 ? answers.shift() : answers[0]));
    const s = await sandbox({ profile: 'md5-colon' });
    const id = await confirmed(s, r);
    let [event] = await eventsOf(s, id);
    expect(event!.status).toBe('pending');
    expect(event!.attempts[0]).toMatchObject({ kind: 'delivery', status: 200, response: 'ok\n', acknowledge: 'ok-text' });
    expect(event!.attempts[0]!.error).toBe(
      'The receiver answered 200 with "ok\\n"; this profile acknowledges only the body OK exactly (upper case, nothing around it), since a provider may compare it byte for byte.',
    );
    await s.admin.advanceClock('1s');
    [event] = await eventsOf(s, id);
    expect(event!.status).toBe('delivered');
    expect(event!.attempts[1]).toEqual(expect.objectContaining({ attempt: 2, status: 200, response: 'OK' }));
    expect(event!.attempts[1]!.error).toBeUndefined();
    expect(event!.attempts[1]!.acknowledge).toBeUndefined();
  });

  it('code-zero: {"code":"0"} is refused with the reason; {"code":0} delivers', async () => {
    const answers = ['{"code":"0"}', '{"code":0,"message":"accepted"}'];
    const r = await receiver((_request, res) => void res.end(answers.length > 1 ? answers.shift() : answers[0]));
    const s = await sandbox({ profile: 'standard-webhooks' });
    const id = await confirmed(s, r);
    await s.admin.advanceClock('1s');
    const [event] = await eventsOf(s, id);
    expect(event!.attempts.map((a) => [a.status, a.acknowledge])).toEqual([
      [200, 'code-zero'],
      [200, undefined],
    ]);
    expect(event!.attempts[0]!.error).toMatch(/only with a JSON object whose code is the number 0, e\.g\. \{"code":0\} \(a string "0" is not the number 0\)\.$/);
    expect(event!.status).toBe('delivered');
  });

  it('a body past the 1 KiB the sandbox reads does not acknowledge under ok-text, and says so', async () => {
    const r = await answering(`OK${' '.repeat(4096)}`);
    const s = await sandbox({ profile: 'md5-colon' });
    const id = await confirmed(s, r);
    const [event] = await eventsOf(s, id);
    expect(event!.attempts[0]!.error).toBe(
      'The receiver answered 200 with more than 1024 bytes; this profile acknowledges a callback only with 2xx with the body OK, and the sandbox reads no more than the first 1024 bytes of an answer.',
    );
  });

  it('a non-2xx answer keeps its wording under every rule', async () => {
    const r = await receiver((_request, res) => {
      res.statusCode = 500;
      res.end('OK');
    });
    const s = await sandbox({ profile: 'md5-colon' });
    const id = await confirmed(s, r);
    const [attempt] = (await eventsOf(s, id))[0]!.attempts;
    expect(attempt!.error).toBe('The receiver answered 500; only a 2xx answer counts as delivered.');
    expect(attempt!.acknowledge).toBeUndefined();
  });
});

describe('when callbacks are sent, and with which headers', () => {
  it('final-only: one callback per trade, none for a change to a state that is not final', async ({ folder }) => {
    const file = join(folder, 'final-only.yaml');
    writeFileSync(file, 'name: final-only\nextends: sandbox\ncallbacks:\n  send_on: final-only\n');
    const r = await receiver();
    const t = await inProcess({ profile: file });
    const created = await t.post('/api/v1/trades/deposit/create', p2pBody({ callback_url: `${r.url}/cb` }));
    const id = ((await created.json()) as { id: string }).id;
    const trade = t.sandbox.store.trades.get(id)!;
    // A change to a state that is not final (as an intermediate state will be) queues nothing.
    expect(t.sandbox.callbacks.onChange({ trade, from: 'created', to: 'ecom', cause: 'admin', at: t.sandbox.clock.nowIso() })).toBeUndefined();
    t.sandbox.lifecycle.transition(id, 'confirmed', 'admin');
    await t.sandbox.scheduler.advance(60_000);
    expect(r.received).toHaveLength(1);
    expect(JSON.parse(r.received[0]!.body)).toMatchObject({ id, state: 'confirmed' });
    expect(t.sandbox.callbacks.forTrade(id)).toHaveLength(1);
  });

  it('every-change queues a change to a state that is not final too', async () => {
    const r = await receiver();
    const t = await inProcess({});
    const created = await t.post('/api/v1/trades/deposit/create', p2pBody({ callback_url: `${r.url}/cb` }));
    const trade = t.sandbox.store.trades.get(((await created.json()) as { id: string }).id)!;
    expect(t.sandbox.callbacks.onChange({ trade, from: 'created', to: 'ecom', cause: 'admin', at: t.sandbox.clock.nowIso() })).toBeDefined();
  });

  it('sandbox_headers false (strict): no X-Sandbox-* header, in the default workspace and in /w/<name>', async () => {
    const r = await receiver();
    const s = await sandbox({ profile: 'strict' });
    await confirmed(s, r);
    const id = await create(s, `${r.url}/cb`, undefined, '/w/team-a');
    await fetch(`${s.url}/w/team-a/_sandbox/trades/${id}/transition`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"state":"canceled"}' });
    await fetch(`${s.url}/w/team-a/_sandbox/clock/advance`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"by":0}' });
    expect(r.received).toHaveLength(2);
    for (const request of r.received) {
      expect(sandboxHeaders(request.headers)).toEqual([]);
      expect(sentHeaders(request.headers)).toEqual(['x-signature']);
    }
  });

  it('a workspace under sandbox_headers true carries X-Sandbox-Workspace first, as before', async () => {
    const r = await receiver();
    const s = await sandbox({ profile: 'sandbox' });
    const id = await create(s, `${r.url}/cb`, undefined, '/w/team-b');
    await fetch(`${s.url}/w/team-b/_sandbox/trades/${id}/transition`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"state":"confirmed"}' });
    await fetch(`${s.url}/w/team-b/_sandbox/clock/advance`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"by":0}' });
    expect(sentHeaders(r.received[0]!.headers)).toEqual(['x-sandbox-workspace', 'x-signature', 'x-sandbox-event-id', 'x-sandbox-attempt']);
    expect(r.received[0]!.headers['x-sandbox-workspace']).toBe('team-b');
  });
});

describe('the profile in force when each attempt is sent', () => {
  it('a profile put between two attempts signs the second with the new profile and judges it by the new rule', async () => {
    const answers = [500, 200];
    const r = await receiver((_request, res) => {
      res.statusCode = answers.length > 1 ? answers.shift()! : answers[0]!;
      res.end('{"code":0}');
    });
    const t = await inProcess({});
    const created = await t.post('/api/v1/trades/deposit/create', p2pBody({ callback_url: `${r.url}/cb` }));
    const id = ((await created.json()) as { id: string }).id;
    t.sandbox.lifecycle.transition(id, 'confirmed', 'admin');
    await t.sandbox.scheduler.advance(0);
    expect(r.received).toHaveLength(1);
    expect(verifyCallbackSignature(DEMO.secret, r.received[0]!.body, r.received[0]!.headers['x-signature'] as string)).toBe(true);

    const put = await setWorkspaceProfile(t.sandbox, 'name: team-profile\nextends: standard-webhooks\n');
    expect(put.ok).toBe(true);
    await t.sandbox.scheduler.advance(1_000);
    expect(r.received).toHaveLength(2);
    const second = r.received[1]!;
    expect(second.headers['x-signature']).toBeUndefined();
    expect(second.headers['x-sandbox-attempt']).toBe('2');
    expect(verifiesStandardWebhooks(DEMO.secret, second.body, second.headers)).toBe(true);
    expect(t.sandbox.callbacks.forTrade(id)[0]!.status).toBe('delivered');
  });

  it("retries are read at failure time: the profile's in force then", async () => {
    const r = await receiver((_request, res) => {
      res.statusCode = 503;
      res.end();
    });
    const t = await inProcess({});
    const created = await t.post('/api/v1/trades/deposit/create', p2pBody({ callback_url: `${r.url}/cb` }));
    const id = ((await created.json()) as { id: string }).id;
    await setWorkspaceProfile(t.sandbox, 'name: slow-retries\nextends: sandbox\ncallbacks:\n  retries: [1m]\n');
    t.sandbox.lifecycle.transition(id, 'confirmed', 'admin');
    await t.sandbox.scheduler.advance(0);
    await t.sandbox.scheduler.advance(59_999);
    expect(r.received).toHaveLength(1);
    await t.sandbox.scheduler.advance(1);
    expect(r.received).toHaveLength(2);
    expect(t.sandbox.callbacks.forTrade(id)[0]!.status).toBe('failed');
  });

  it("--callback-retries wins over the profile's retries", async ({ folder }) => {
    const file = join(folder, 'slow.yaml');
    writeFileSync(file, 'name: slow\nextends: sandbox\ncallbacks:\n  retries: [1h, 1h]\n');
    const r = await receiver((_request, res) => {
      res.statusCode = 500;
      res.end();
    });
    const s = await sandbox({ profile: file, callbackRetries: '2s' });
    const id = await confirmed(s, r);
    await s.admin.advanceClock('1999ms');
    expect(r.received).toHaveLength(1);
    await s.admin.advanceClock('1ms');
    expect(r.received).toHaveLength(2);
    const [event] = await eventsOf(s, id);
    expect(event!.status).toBe('failed');
    expect(event!.attempts).toHaveLength(2);
  });
});

describe('the integration report under a profile', () => {
  it("counts a 2xx that does not acknowledge under the rule as the receiver's mistake, with the reason", async () => {
    const r = await answering('ok');
    const s = await sandbox({ profile: 'md5-colon', callbackRetries: '1s' });
    const id = await confirmed(s, r);
    await s.admin.advanceClock('1s');
    expect((await eventsOf(s, id))[0]!.status).toBe('failed');
    const report = await s.admin.report();
    const [merchant] = report.merchants;
    const reason = 'The receiver answered 200 with "ok"; this profile acknowledges only the body OK exactly (upper case, nothing around it), since a provider may compare it byte for byte.';
    expect(merchant!.callbacks).toEqual({ answered_non_2xx: 0, timed_out: 0, never_acknowledged: 1, accepted_bad_signature: 0, wrong_acknowledgement: 2, wrong_acknowledgement_reason: reason });
    expect(merchant!.total).toBe(3);
    const row = report.coverage[0]!.rows.find((c) => c.id === 'callback.confirmed')!;
    expect(row).toMatchObject({ status: 'wrong', detail: 'never acknowledged: 2 attempts failed, the last with HTTP 200 "ok", not an acknowledgement under ok-text' });
    const junit = reportJunit(report);
    expect(junit).toContain('tests="8" failures="2"');
    expect(junit).toContain(`<failure message="2 mistakes: callback attempts answered 2xx without the acknowledgement the profile asks for: 2; the last: ${reason.replaceAll('"', '&quot;')}"`);
  });

  it('a 200 "OK" under ok-text is no mistake, and the report keeps its shape', async () => {
    const r = await answering('OK');
    const s = await sandbox({ profile: 'md5-colon' });
    await confirmed(s, r);
    const report = await s.admin.report();
    expect(report.merchants).toEqual([]);
    expect(report.coverage[0]!.rows.find((c) => c.id === 'callback.confirmed')!.status).toBe('handled');
  });
});
