import { jsonType, valueFormat, type JsonType } from './value-format.js';

/** One node of a JSON value: its type, and for a leaf its format and value. */
export interface ShapeNode {
  type: JsonType;
  /** For strings, numbers, booleans and null: valueFormat(). */
  format?: string;
  /** The value of a leaf (the first one, for the elements of an array). */
  value?: unknown;
}

/** How deep a body is walked: deeper nodes are left out (no provider answer is nested this far). */
const MAX_DEPTH = 16;

/**
 * Every key path of a JSON value with its type: `payment_data.number`, and `details[].field` for
 * the elements of an array (the elements' paths merged, the first element's type kept). The
 * root is the path ''.
 *
 * @example
 * jsonShape({ a: [{ b: 1 }] }) // Map { '' => object, 'a' => array, 'a[]' => object, 'a[].b' => integer 1 }
 */
export function jsonShape(value: unknown): Map<string, ShapeNode> {
  const shape = new Map<string, ShapeNode>();
  const visit = (node: unknown, path: string, depth: number): void => {
    if (shape.has(path) || depth > MAX_DEPTH) return;
    const type = jsonType(node);
    if (type === 'object') {
      shape.set(path, { type });
      for (const [key, inner] of Object.entries(node as Record<string, unknown>)) visit(inner, path === '' ? key : `${path}.${key}`, depth + 1);
    } else if (type === 'array') {
      shape.set(path, { type });
      for (const inner of node as unknown[]) visit(inner, `${path}[]`, depth + 1);
    } else {
      shape.set(path, { type, format: valueFormat(node, path), value: node });
    }
  };
  visit(value, '', 0);
  return shape;
}

/** The parent path of a key path ('' for a top-level key). */
export function parentPath(path: string): string {
  if (path.endsWith('[]')) return path.slice(0, -2);
  const dot = path.lastIndexOf('.');
  return dot < 0 ? '' : path.slice(0, dot);
}
