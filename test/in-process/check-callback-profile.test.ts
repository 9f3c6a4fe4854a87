/**
 * The receiver check and the callback fuzzer under a provider profile: they send what the sandbox
 * sends under it (checked by verifiers written apart from src/profile: node:crypto and the
 * standardwebhooks package) and judge the answers by its acknowledgement rule.
 */
import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { fuzzReceiver } from '../../src/callback-fuzzer/fuzz-receiver.js';
import { FORGED_KINDS } from '../../src/callback-fuzzer/schedule.js';
import { checkCallbackReceiver } from '../../src/check-callback/check-callback-receiver.js';
import type { CheckReport } from '../../src/check-callback/check-report.js';
import { checkCallbackCommand } from '../../src/cli/check-callback-command.js';
import { loadProfile } from '../../src/profile/load-profile.js';
import { ProfileError } from '../../src/profile/profile-error.js';
import { parseProfile } from '../../src/profile/load-profile.js';
import { startReceiver, type Receiver, type Received } from '../callbacks-receiver.js';
import { DEMO, makeSandbox, SECOND } from '../support.js';

const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** A receiver whose answer (status and body) comes from `handler`. */
async function receiver(handler: (request: Received) => [number, string]): Promise<Receiver> {
  const r = await startReceiver((request, res: ServerResponse) => {
    const [status, body] = handler(request);
    res.writeHead(status, { 'Content-Type': 'text/plain' }).end(body);
  });
  closers.push(() => r.close());
  return r;
}

const verdicts = (report: CheckReport) => Object.fromEntries(report.cases.map((c) => [c.case, c.verdict]));
const FIELDS = ['id', 'order', 'merchant', 'state', 'amount_cents', 'amount_currency', 'rate'];

/** md5-colon's callback signature, written apart: MD5 hex of the seven values and the secret joined with ":". */
function md5Colon(body: string, secret: string): string {
  const trade = JSON.parse(body) as Record<string, unknown>;
  return createHash('md5')
    .update([...FIELDS.map((key) => String(trade[key])), secret].join(':'), 'utf8')
    .digest('hex');
}

/** A correct md5-colon receiver: verifies, handles each trade and state once, answers OK (401 when the signature fails). */
function md5ColonReceiver(ok = 'OK') {
  return receiver((request) => (request.headers['x-signature'] === md5Colon(request.body, DEMO.secret) ? [200, ok] : [401, 'bad sign']));
}

const webhook = new Webhook(`whsec_${Buffer.from(DEMO.secret, 'utf8').toString('base64')}`);
const verifies = (body: string, headers: IncomingHttpHeaders) => {
  try {
    webhook.verify(body, headers as Record<string, string>);
    return true;
  } catch {
    return false;
  }
};

const check = (url: string, profile: string, extra: Partial<Parameters<typeof checkCallbackReceiver>[0]> = {}) =>
  checkCallbackReceiver({ url, merchant: { id: DEMO.id, secret: DEMO.secret }, timeoutMs: 5_000, profile: loadProfile(profile), ...extra });

describe('checkCallbackReceiver under a profile', () => {
  it('md5-colon: sends request-style signatures, expects the body OK, and passes a correct receiver', async () => {
    const r = await md5ColonReceiver();
    const report = await check(r.url, 'md5-colon');
    expect(verdicts(report)).toEqual({ valid: 'ok', duplicate: 'ok', older_state: 'ok', bad_signature: 'ok', no_signature: 'ok' });
    expect(report.cases.map((c) => c.expected)).toEqual(['2xx with the body OK', '2xx with the body OK', '2xx with the body OK, and ignored', '401 (any 4xx)', '401 (any 4xx)']);
    const [valid, , , bad, missing] = r.received;
    expect(valid!.headers['x-signature']).toBe(md5Colon(valid!.body, DEMO.secret));
    expect(bad!.headers['x-signature']).toMatch(/^[0-9a-f]{32}$/);
    expect(bad!.headers['x-signature']).not.toBe(md5Colon(bad!.body, DEMO.secret));
    expect(missing!.headers['x-signature']).toBeUndefined();
    expect(r.received.map((q) => q.headers['x-sandbox-check'])).toEqual(['valid', 'duplicate', 'older_state', 'bad_signature', 'no_signature']);
  });

  it('md5-colon: flags a receiver that answers "ok" for OK, with the rule\'s reason and what to answer', async () => {
    const r = await md5ColonReceiver('ok');
    const report = await check(r.url, 'md5-colon');
    expect(verdicts(report)).toMatchObject({ valid: 'flagged', duplicate: 'flagged', older_state: 'flagged' });
    expect(report.cases[0]!.message).toBe(
      'Did not accept a correctly signed callback. It answered 200 ("ok"). The receiver answered 200 with "ok"; this profile acknowledges only the body OK exactly (upper case, nothing around it), since a provider may compare it byte for byte. Answer 2xx with the body OK once the callback is verified and stored; anything else is retried by the service and finally marked failed. Answer quickly and do slow work afterwards.',
    );
    expect(report.cases[0]!.error).toMatch(/^The receiver answered 200 with "ok"; this profile acknowledges only the body OK exactly/);
  });

  it('md5-colon: a forged callback acknowledged with OK is flagged with how to verify under the profile; refused with another 2xx body, warned', async () => {
    const accepting = await receiver(() => [200, 'OK']);
    const flagged = await check(accepting.url, 'md5-colon');
    expect(flagged.cases[3]).toMatchObject({ verdict: 'flagged' });
    expect(flagged.cases[3]!.message).toBe(
      'Accepted a callback whose X-Signature is wrong (200): anyone who can reach this URL could mark orders paid. Verify X-Signature before doing anything else: it is MD5, hex of the body\'s id, order, merchant, state, amount_cents, amount_currency, rate joined with ":", with the merchant\'s secret as the last value; compare it in constant time and answer 401 when it does not match.',
    );
    const quiet = await receiver((request) => (request.headers['x-signature'] === md5Colon(request.body, DEMO.secret) ? [200, 'OK'] : [200, 'FAIL']));
    const warned = await check(quiet.url, 'md5-colon');
    expect(verdicts(warned)).toEqual({ valid: 'ok', duplicate: 'ok', older_state: 'ok', bad_signature: 'warning', no_signature: 'warning' });
    expect(warned.passed).toBe(true);
  });

  it('standard-webhooks: callbacks a Standard Webhooks library verifies, judged by code-zero', async () => {
    const r = await receiver((request) => (verifies(request.body, request.headers) ? [200, '{"code":0}'] : [401, '{"code":401}']));
    const report = await check(r.url, 'standard-webhooks');
    expect(verdicts(report)).toEqual({ valid: 'ok', duplicate: 'ok', older_state: 'ok', bad_signature: 'ok', no_signature: 'ok' });
    const [valid, duplicate, , , missing] = r.received;
    expect(duplicate!.headers['webhook-id']).toBe(valid!.headers['webhook-id']);
    expect(missing!.headers['webhook-signature']).toBeUndefined();
    expect(missing!.headers['webhook-id']).toBeDefined();
    const wrongCode = await receiver(() => [200, '{"code":"0"}']);
    expect((await check(wrongCode.url, 'standard-webhooks')).cases[0]!.message).toContain('(a string "0" is not the number 0)');
  });

  it('strict: no X-Sandbox-* header at all, and advice without X-Sandbox-Event-Id', async () => {
    const r = await receiver((request) => {
      const signature = request.headers['x-signature'];
      const trade = JSON.parse(request.body) as { state: string };
      if (signature === undefined) return [401, 'no'];
      return trade.state === 'created' ? [409, 'older'] : [200, 'ok'];
    });
    const report = await check(r.url, 'strict');
    for (const request of r.received) expect(Object.keys(request.headers).filter((name) => name.startsWith('x-sandbox-'))).toEqual([]);
    expect(report.cases[2]!.verdict).toBe('flagged');
    const refusingRepeats = await receiver(() => [409, 'seen']);
    const repeats = await check(refusingRepeats.url, 'strict');
    expect(repeats.cases[1]!.message).toContain('Did not accept a repeat of the same callback (same body and signature).');
    expect(repeats.cases[1]!.message).toContain('remember the trade ids and states handled');
  });

  it('none: the forged cases are skipped, since there is no signature to spoil', async () => {
    const r = await receiver(() => [200, 'ok']);
    const report = await checkCallbackReceiver({
      url: r.url,
      merchant: { id: DEMO.id, secret: DEMO.secret },
      timeoutMs: 5_000,
      profile: parseProfile('name: unsigned\nextends: sandbox\ncallbacks:\n  signature: none\n'),
    });
    expect(verdicts(report)).toEqual({ valid: 'ok', duplicate: 'ok', older_state: 'ok', bad_signature: 'skipped', no_signature: 'skipped' });
    expect(report.cases[3]!.message).toBe('Not sent: the provider profile "unsigned" sends callbacks unsigned (callbacks.signature: none), so there is no signature to spoil or leave out.');
    expect(r.received).toHaveLength(3);
    expect(report.passed).toBe(true);
  });

  it("POST /_sandbox/check-callback sends under the sandbox's own profile", async () => {
    const t = await makeSandbox({ profile: 'md5-colon' });
    closers.push(() => t.close());
    const r = await md5ColonReceiver('ok');
    const res = await t.app.request('/_sandbox/check-callback', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ url: r.url }) });
    const report = (await res.json()) as CheckReport;
    expect(report.cases[0]).toMatchObject({ verdict: 'flagged', expected: '2xx with the body OK', status: 200 });
    expect(r.received[0]!.headers['x-signature']).toBe(md5Colon(r.received[0]!.body, DEMO.secret));
  });

  it('check-callback --profile names the profile, and one that cannot be loaded is a ProfileError', async () => {
    const r = await md5ColonReceiver();
    let out = '';
    const report = await checkCallbackCommand(r.url, { profile: 'md5-colon', timeout: '5s' }, (text) => {
      out += text;
    });
    expect(report.passed).toBe(true);
    expect(out).toMatch(/^Checking the callback receiver http:\/\/127\.0\.0\.1:\d+ as merchant [0-9a-f-]+ \(Demo Shop\), under the provider profile md5-colon\n/);
    await expect(checkCallbackCommand(r.url, { profile: 'md5-colons' }, () => undefined)).rejects.toThrow(ProfileError);
  });
});

describe('fuzzReceiver under a profile', () => {
  const fuzz = (url: string, profile = loadProfile('md5-colon'), extra: Partial<Parameters<typeof fuzzReceiver>[0]> = {}) =>
    fuzzReceiver({ url, merchant: { id: DEMO.id, secret: DEMO.secret }, otherSecret: SECOND.secret, publicUrl: 'http://127.0.0.1:4242', timeoutMs: 5_000, seed: 46, runs: 30, profile, ...extra });

  it('md5-colon: a receiver that verifies and answers OK passes', async () => {
    const r = await md5ColonReceiver();
    const report = await fuzz(r.url);
    expect(report.passed).toBe(true);
    expect(r.received.some((q) => q.headers['x-signature'] === md5Colon(q.body, DEMO.secret))).toBe(true);
  });

  it('md5-colon: "ok" for OK is a genuine callback not acknowledged, with the reason', async () => {
    const r = await md5ColonReceiver('ok');
    const report = await fuzz(r.url);
    expect(report.passed).toBe(false);
    const cause = report.failure!.violations.find((v) => v.kind === 'genuine_refused')!.cause;
    expect(cause).toMatch(
      /^answered 200 \(not an acknowledgement\) to a genuine callback \(T1 \w+ \(event T1#1\), attempt 1\) \(The receiver answered 200 with "ok"; this profile acknowledges only the body OK exactly/,
    );
    expect(cause).toMatch(/: answer 2xx with the body OK to every correctly signed callback/);
  });

  it('md5-colon: a receiver that does not verify is told how the profile signs', async () => {
    const r = await receiver(() => [200, 'OK']);
    const report = await fuzz(r.url);
    expect(report.failure!.violations[0]!.kind).toBe('forged_accepted');
    expect(report.failure!.violations[0]!.cause).toContain("the receiver does not verify X-Signature (MD5, hex of the body's id, order, merchant, state");
  });

  it('none: the schedules hold no forged callbacks, and a given one that does is refused', async () => {
    const unsigned = parseProfile('name: unsigned\nextends: sandbox\ncallbacks:\n  signature: none\n');
    const r = await receiver(() => [200, 'ok']);
    const report = await fuzz(r.url, unsigned, { runs: 50 });
    expect(report.passed).toBe(true);
    expect(r.received.every((q) => q.headers['x-signature'] === undefined)).toBe(true);
    await expect(fuzz(r.url, unsigned, { schedule: { trades: [{ amount_cents: 100, final: 'confirmed' }], steps: [{ trade: 0, kind: 'wrong_signature' }] } })).rejects.toThrow(
      /the provider profile "unsigned" sends callbacks unsigned/,
    );
    expect([...FORGED_KINDS]).toEqual(['wrong_signature', 'no_signature', 'other_merchant']);
  });
});
