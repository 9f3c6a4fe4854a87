import { compareHeaderNames } from './compare-answers.js';
import { compareBodies } from './compare-bodies.js';
import type { Difference } from './drift-types.js';
import type { CapturedCallback } from './callback-inbox.js';
import type { CallbackScheme } from './callback-schemes.js';
import { meaningfulHeaderNames } from './meaningful-headers.js';

/** A callback as compared: what arrived, and the schemes that verify its signature. */
export interface CallbackSeen {
  callback: CapturedCallback;
  schemes: readonly CallbackScheme[];
}

/** The schemes' names, as a difference shows them. */
const schemeNames = (schemes: readonly CallbackScheme[]): string => (schemes.length === 0 ? 'no built-in scheme verifies it' : schemes.map((scheme) => scheme.name).join(' or '));

const mediaType = (callback: CapturedCallback) => (callback.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';

/**
 * The differences between the sandbox's and the target's callback for the same kind of trade:
 * the signature scheme (`callback`: no scheme verifies both), the media type, the headers worth
 * comparing (signature headers aside: they are the scheme), and the body's structure and
 * formats. The state is not compared: it is whatever happened to each trade.
 *
 * @example
 * compareCallbacks('callback.any_bank', sandboxSeen, targetSeen, ['x-signature', 'webhook-signature'])
 */
export function compareCallbacks(probe: string, sandbox: CallbackSeen, target: CallbackSeen, signatureHeaders: readonly string[]): Difference[] {
  const differences: Difference[] = [];
  const shared = sandbox.schemes.some((ours) => target.schemes.some((theirs) => theirs.id === ours.id));
  if (!shared) differences.push({ probe, aspect: 'callback', path: 'signature', sandbox: schemeNames(sandbox.schemes), target: schemeNames(target.schemes) });
  const ours = mediaType(sandbox.callback);
  const theirs = mediaType(target.callback);
  if (ours !== theirs) differences.push({ probe, aspect: 'content_type', path: '', sandbox: ours || 'none', target: theirs || 'none' });
  differences.push(...compareHeaderNames(probe, meaningfulHeaderNames(sandbox.callback.headers, signatureHeaders), meaningfulHeaderNames(target.callback.headers, signatureHeaders)));
  const body = (callback: CapturedCallback): unknown => {
    try {
      return JSON.parse(callback.body);
    } catch {
      return undefined;
    }
  };
  const ourBody = body(sandbox.callback);
  const theirBody = body(target.callback);
  if (theirBody === undefined) {
    differences.push({ probe, aspect: 'callback', path: 'body', sandbox: 'JSON', target: 'not JSON' });
    return differences;
  }
  differences.push(...compareBodies(probe, ourBody, theirBody, { kind: 'success' }).filter((difference) => difference.aspect !== 'state'));
  return differences;
}
