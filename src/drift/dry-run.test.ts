import { describe, expect, it } from 'vitest';
import { loadProfile } from '../profile/load-profile.js';
import { dryRunText } from './dry-run.js';
import { PROBES } from './probes.js';

const credentials = { merchant: '6f1c2a9e-3b7d-4c52-9a1e-2d4b8f0c7e51', token: 'the-token-value', secret: 'the-secret-value' };

describe('dryRunText', () => {
  it('lists every request a run sends, with the token and signatures as placeholders', () => {
    const text = dryRunText({ target: 'https://p.example', credentials, profile: loadProfile('hmac-sha512-base64'), amount: 1, gapMs: 200, waitMs: 60_000 });
    for (const probe of PROBES) expect(text).toContain(`${probe.id}: `);
    expect(text).not.toContain(credentials.token);
    expect(text).not.toContain(credentials.secret);
    expect(text).toContain(
      'create.any_bank: a valid create of type any_bank\n  POST /api/v1/trades/deposit/create\n  Content-Type: application/json\n  X-Auth: <token>\n  X-Signature: <signature>\n  {"merchant":"6f1c2a9e-3b7d-4c52-9a1e-2d4b8f0c7e51","order":"drift-<random>","amount_cents":1,"amount_currency":"RUB","type":"any_bank"}',
    );
    expect(text).toContain(
      "get.any_bank: a get of create.any_bank's trade\n  GET /api/v1/trades/6f1c2a9e-3b7d-4c52-9a1e-2d4b8f0c7e51/<id of create.any_bank's trade>\n  X-Token: <token>\n  X-Signature: <signature>",
    );
    expect(text).toContain(
      "auth.wrong_token: a create whose X-Auth holds a token that is no merchant's (a signature in a header of its own stays right)\n  POST /api/v1/trades/deposit/create\n  Content-Type: application/json\n  X-Auth: <a token that is no merchant's>\n  X-Signature: <signature>",
    );
    expect(text).toContain('X-Signature: <signature made with a wrong secret>');
    expect(text).toContain("get.other_merchant_trade: a get, as the merchant, of the second merchant's trade\n  not sent: needs --other-merchant, --other-token and --other-secret");
    expect(text).toContain('signing.sandbox: create.any_bank again');
    expect(text).toContain("signing.token: create.any_bank again, authenticated as the merchant's token alone");
    expect(text).toContain('Callbacks: not checked');
  });

  it("shows the callback_url the trades carry and the second merchant's credentials as placeholders", () => {
    const other = { merchant: '0b8e4c3d-7a21-4f6e-8d59-3c1a2b9e6f70', token: 'other-token-value', secret: 'other-secret-value' };
    const text = dryRunText({ target: 'https://p.example', credentials, other, profile: loadProfile('sandbox'), callbackUrl: 'https://tunnel.example/cb', amount: 100, gapMs: 200, waitMs: 60_000 });
    expect(text).toContain('"amount_cents":100,"amount_currency":"RUB","type":"nspk","callback_url":"https://tunnel.example/cb"}');
    expect(text).toContain(
      "setup.other_merchant: a valid create of type any_bank as the second merchant, for the next probe (not compared)\n  POST /api/v1/trades/deposit/create\n  Content-Type: application/json\n  X-Auth: <the second merchant's signature>",
    );
    expect(text).not.toContain(other.token);
    expect(text).toContain('waits up to 60 s');
  });
});
