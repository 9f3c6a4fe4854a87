const PREFIX = 'whsec_';
/** Standard base64 with its padding, as Standard Webhooks secrets are written. */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * The Standard Webhooks signing key of a merchant: its secret when that already is a key
 * (`whsec_` then base64), else `whsec_` + the base64 of the secret's UTF-8 bytes, so any secret
 * the fixtures hold signs and a receiver's Standard Webhooks library takes the printed key as it
 * is. A `whsec_` secret whose rest is not base64 counts as a plain secret.
 *
 * @example
 * standardWebhooksKey('sandbox-secret-demo') // 'whsec_c2FuZGJveC1zZWNyZXQtZGVtbw=='
 * standardWebhooksKey('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw') // the same text
 */
export function standardWebhooksKey(secret: string): { key: string; bytes: Buffer } {
  const rest = secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : undefined;
  if (rest !== undefined && rest !== '' && BASE64.test(rest)) return { key: secret, bytes: Buffer.from(rest, 'base64') };
  const bytes = Buffer.from(secret, 'utf8');
  return { key: `${PREFIX}${bytes.toString('base64')}`, bytes };
}
