import type { Sandbox } from '../sandbox.js';
import { describeSigning } from '../profile/sign-request.js';
import { standardWebhooksKey } from '../profile/standard-webhooks-key.js';

const CALLBACK_SCHEMES: Record<string, string> = {
  sandbox: 'X-Signature (hex HMAC-SHA256 of the body)',
  'request-style': 'signed like a request',
  'standard-webhooks': 'Standard Webhooks',
  none: 'unsigned',
};

/**
 * The start-up lines that name the provider profile: how requests are signed, how callbacks are
 * signed and acknowledged; under Standard Webhooks, each bundled merchant's signing key (the
 * bundled secrets are public, in the README; the key of a merchant of a --fixtures file is
 * named, not printed, as no secret ever is).
 */
export function profileLines(sandbox: Sandbox): string[] {
  const { profile } = sandbox;
  const create = describeSigning(profile, 'create', {});
  const where = create.header === 'X-Auth' ? 'X-Auth / X-Token' : `${create.header}, the token in X-Auth / X-Token`;
  const lines = [
    `  profile:  ${profile.name}: requests ${create.algorithm} in ${where}; callbacks ${CALLBACK_SCHEMES[profile.callbacks.signature] ?? profile.callbacks.signature}, acknowledged by ${profile.callbacks.acknowledge}`,
  ];
  if (profile.callbacks.signature === 'standard-webhooks') {
    for (const merchant of sandbox.merchants.list()) {
      lines.push(
        sandbox.options.fixtures === undefined
          ? `  webhook key of ${merchant.name}: ${standardWebhooksKey(merchant.secret).key}`
          : `  webhook key of ${merchant.name}: its secret if it starts with whsec_, else whsec_ + the base64 of its secret`,
      );
    }
  }
  return lines;
}
