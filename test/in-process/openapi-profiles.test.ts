import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { BUILTIN_PROFILE_NAMES } from '../../src/profile/builtin-profile-names.js';
import { makeSandbox } from '../support.js';

// /openapi.json under each built-in provider profile: a valid OpenAPI 3.1 document whose create
// and build describe the callback the trade gets as that profile sends it.

// biome-ignore lint/suspicious/noExplicitAny: walks JSON of any shape
type Json = Record<string, any>;

async function documentUnder(profile: string): Promise<Json> {
  const t = await makeSandbox({ profile });
  try {
    // The workspace's own document (the suite's checked app reads the default profile's).
    return (await (await createApp(t.server).request('/openapi.json')).json()) as Json;
  } finally {
    await t.close();
  }
}

const callbackOf = (doc: Json, path: string) => doc['paths'][path]['post']['callbacks']['tradeStateChanged']['{$request.body#/callback_url}']['post'] as Json;
const headerNames = (operation: Json) => (operation['parameters'] as Json[]).map((p) => p['name'] as string);

describe.each(BUILTIN_PROFILE_NAMES)('/openapi.json under %s', (profile) => {
  it('is valid OpenAPI 3.1, and create and build carry the same callback of the trade', async () => {
    const doc = await documentUnder(profile);
    const result = await new Validator().validate(doc as never);
    expect(result.errors).toBeUndefined();
    const callback = callbackOf(doc, '/api/v1/trades/deposit/create');
    expect(callbackOf(doc, '/api/v1/trades/deposit/build')).toEqual(callback);
    expect(callback['requestBody']['content']['application/json']['schema']).toEqual({ $ref: '#/components/schemas/Trade' });
  });
});

describe('the callback follows the profile', () => {
  it('sandbox: X-Signature and the X-Sandbox-* helpers, any 2xx acknowledges', async () => {
    const callback = callbackOf(await documentUnder('sandbox'), '/api/v1/trades/deposit/create');
    expect(headerNames(callback)).toEqual(['X-Signature', 'X-Sandbox-Event-Id', 'X-Sandbox-Attempt', 'X-Sandbox-Workspace']);
    expect(Object.keys(callback['responses'])).toEqual(['2XX']);
  });

  it('strict: no sandbox-only header', async () => {
    expect(headerNames(callbackOf(await documentUnder('strict'), '/api/v1/trades/deposit/create'))).toEqual(['X-Signature']);
  });

  it('standard-webhooks: its three headers, and {"code":0} acknowledges', async () => {
    const callback = callbackOf(await documentUnder('standard-webhooks'), '/api/v1/trades/deposit/create');
    expect(headerNames(callback).slice(0, 3)).toEqual(['webhook-id', 'webhook-timestamp', 'webhook-signature']);
    expect(callback['responses']['200']['content']['application/json']['schema']).toMatchObject({ properties: { code: { const: 0 } } });
  });

  it('md5-colon: the signature signed like a request in X-Signature, and OK acknowledges', async () => {
    const callback = callbackOf(await documentUnder('md5-colon'), '/api/v1/trades/deposit/create');
    expect((callback['parameters'] as Json[])[0]).toMatchObject({ name: 'X-Signature', description: expect.stringContaining('MD5') });
    expect(callback['responses']['200']['content']['text/plain']['schema']).toEqual({ type: 'string', const: 'OK' });
  });
});
