import type { Aspect, Difference } from './drift-types.js';
import { jsonShape, parentPath, type ShapeNode } from './json-shape.js';

/** How a body is read: a trade (success answers and callbacks) or an error. */
export interface BodyKind {
  kind: 'success' | 'error';
  /** Of an error: the key path of its code under the profile's template, compared by value. */
  codePath?: string;
}

/**
 * The differences between two JSON bodies that matter: key paths present in one only (the
 * topmost of them), another JSON type, another format (valueFormat(): ids, requisites and
 * messages by their form, never their value), another `state` (by value), another error code
 * (by value). In an error body every difference is an `error_shape`.
 *
 * @example
 * compareBodies('create.any_bank', { amount_cents: 1 }, { amount_cents: '1' }, { kind: 'success' })
 * // [{ probe: 'create.any_bank', aspect: 'field_type', path: 'amount_cents', sandbox: 'number', target: 'string' }]
 */
export function compareBodies(probe: string, sandbox: unknown, target: unknown, body: BodyKind): Difference[] {
  const ours = jsonShape(sandbox);
  const theirs = jsonShape(target);
  const differences: Difference[] = [];
  const blocked = new Set<string>();
  const isBlocked = (path: string): boolean => {
    for (let at = path; at !== ''; ) {
      at = parentPath(at);
      if (blocked.has(at)) return true;
    }
    return false;
  };
  const error = body.kind === 'error';
  const add = (aspect: Aspect, path: string, sandboxShown: Difference['sandbox'], targetShown: Difference['target']) =>
    differences.push({ probe, aspect: error ? 'error_shape' : aspect, path, sandbox: sandboxShown, target: targetShown });

  for (const [path, node] of ours) {
    if (isBlocked(path)) continue;
    const other = theirs.get(path);
    if (other === undefined) {
      blocked.add(path);
      add('field_missing', path, node.type, 'missing');
    } else if (other.type !== node.type) {
      blocked.add(path);
      add('field_type', path, node.type, other.type);
    } else if (node.format !== undefined) {
      compareLeaf(path, node, other, body, add);
    }
  }
  for (const [path, node] of theirs) {
    if (ours.has(path) || isBlocked(path)) continue;
    blocked.add(path);
    add('field_extra', path, 'missing', node.type);
  }
  return differences;
}

function compareLeaf(
  path: string,
  ours: ShapeNode,
  theirs: ShapeNode,
  body: BodyKind,
  add: (aspect: Aspect, path: string, sandbox: Difference['sandbox'], target: Difference['target']) => void,
): void {
  if (body.kind === 'success' && path === 'state') {
    if (ours.value !== theirs.value) add('state', path, shown(ours.value), shown(theirs.value));
    return;
  }
  if (body.kind === 'error' && path === body.codePath && typeof ours.value === 'string' && typeof theirs.value === 'string') {
    if (ours.value !== theirs.value) add('error_shape', path, ours.value, theirs.value);
    return;
  }
  if (ours.format !== theirs.format) add('field_format', path, ours.format ?? ours.type, theirs.format ?? theirs.type);
}

const shown = (value: unknown): Difference['sandbox'] => (value === null || ['string', 'number', 'boolean'].includes(typeof value) ? (value as Difference['sandbox']) : JSON.stringify(value));
