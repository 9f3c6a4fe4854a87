import { isMap, isScalar, isSeq, type Document, type LineCounter, type Node } from 'yaml';
import type { z } from 'zod';
import { formatPath } from './issues.js';
import { nearestKey } from './nearest-key.js';

/** One thing wrong with a scenario file, placed on its line. */
export interface FileProblem {
  file: string;
  /** 1-based; absent when the problem is not tied to a place (the file cannot be read). */
  line?: number;
  column?: number;
  /** Field path such as `scenarios[0].timeline[1].state`, or '' for the whole file. */
  path: string;
  message: string;
}

type Issue = z.core.$ZodIssue;
type Key = string | number;

/**
 * Zod reports a failed union as one `invalid_union` issue holding every option's issues.
 * When the value's shape picks one option (its issues lie inside the value, or it is the only
 * option whose type fits), report that option's issues instead, with their full paths.
 */
export function flattenUnions(issues: readonly Issue[]): Issue[] {
  const out: Issue[] = [];
  for (const issue of issues) {
    if (issue.code !== 'invalid_union' || !('errors' in issue) || issue.errors.length === 0) {
      out.push(issue);
      continue;
    }
    const branches = issue.errors;
    const inside = branches.filter((list) => list.length > 0 && list.every((i) => i.path.length > 0));
    const typed = branches.filter((list) => list.length > 0 && !list.some((i) => i.path.length === 0 && i.code === 'invalid_type'));
    const pick = inside.length === 1 ? inside[0] : typed.length === 1 ? typed[0] : undefined;
    if (!pick) {
      out.push(issue);
      continue;
    }
    out.push(...flattenUnions(pick.map((inner) => ({ ...inner, path: [...issue.path, ...inner.path] }) as Issue)));
  }
  return out;
}

interface Located {
  line: number;
  column: number;
  /** The path's last key is not in the file (a required field is missing). */
  missing: boolean;
}

/** The line and column of the YAML node at a zod issue path (or of the nearest parent there is). */
export function locate(doc: Document, counter: LineCounter, path: readonly Key[]): Located | undefined {
  const at = (node: { range?: [number, number, number] | null } | null | undefined) => {
    const offset = node?.range?.[0];
    if (offset === undefined) return undefined;
    const { line, col } = counter.linePos(offset);
    return { line, column: col };
  };
  let node: unknown = doc.contents;
  let best = at(doc.contents as Node | null);
  for (const [index, key] of path.entries()) {
    if (isMap(node)) {
      const pair = node.items.find((item) => (isScalar(item.key) ? String(item.key.value) : String(item.key)) === String(key));
      if (!pair) return best ? { ...best, missing: index === path.length - 1 } : undefined;
      best = at(pair.key as Node) ?? best;
      if (isScalar(pair.value) && pair.value.value !== null) best = at(pair.value) ?? best;
      node = pair.value;
    } else if (isSeq(node) && typeof key === 'number') {
      const item = node.items[key] as Node | undefined;
      if (!item) return best ? { ...best, missing: false } : undefined;
      best = at(item) ?? best;
      node = item;
    } else {
      break;
    }
  }
  return best ? { ...best, missing: false } : undefined;
}

/** The YAML node at a path, if the file has one there. */
export function nodeAt(doc: Document, path: readonly Key[]): unknown {
  let node: unknown = doc.contents;
  for (const key of path) {
    if (isMap(node)) {
      const pair = node.items.find((item) => (isScalar(item.key) ? String(item.key.value) : String(item.key)) === String(key));
      if (!pair) return undefined;
      node = pair.value;
    } else if (isSeq(node) && typeof key === 'number') {
      node = node.items[key];
    } else {
      return undefined;
    }
  }
  return node;
}

/** Words YAML 1.1 read as booleans and YAML 1.2 (and this sandbox) reads as strings. */
const YAML11_BOOLEAN = /^(yes|no|on|off|y|n)$/i;

/**
 * A hint when the value at `path` is an unquoted yes/no/on/off: the writer meant a boolean,
 * but YAML 1.2 reads those words as strings.
 */
export function yamlBooleanHint(doc: Document, path: readonly Key[]): string | undefined {
  const node = nodeAt(doc, path);
  if (!isScalar(node) || typeof node.value !== 'string' || node.type !== 'PLAIN' || !YAML11_BOOLEAN.test(node.value)) return undefined;
  const meant = /^(yes|on|y)$/i.test(node.value) ? 'true' : 'false';
  return `${node.value} is read as the string "${node.value}" (YAML 1.2 has only true and false as booleans); write ${meant}`;
}

/** The keys a zod object schema at `path` accepts (for "unknown field" messages). */
export function keysAt(schema: z.core.$ZodType, path: readonly Key[]): string[] {
  const found = new Set<string>();
  const visit = (current: z.core.$ZodType, rest: readonly Key[]) => {
    const def = current._zod.def as unknown as Record<string, unknown> & { type: string };
    switch (def.type) {
      case 'optional':
      case 'nullable':
      case 'default':
      case 'readonly':
        visit(def['innerType'] as z.core.$ZodType, rest);
        return;
      case 'pipe':
        visit(def['in'] as z.core.$ZodType, rest);
        return;
      case 'union':
        for (const option of def['options'] as z.core.$ZodType[]) visit(option, rest);
        return;
      case 'array':
        if (rest.length > 0) visit(def['element'] as z.core.$ZodType, rest.slice(1));
        return;
      case 'object': {
        const shape = def['shape'] as Record<string, z.core.$ZodType>;
        if (rest.length === 0) for (const key of Object.keys(shape)) found.add(key);
        else if (shape[String(rest[0])]) visit(shape[String(rest[0])] as z.core.$ZodType, rest.slice(1));
        return;
      }
      default:
        return;
    }
  };
  visit(schema, path);
  return [...found];
}

/** Turns a zod error on a parsed YAML document into problems with file, line and field path. */
export function describeYamlIssues(file: string, doc: Document, counter: LineCounter, error: z.ZodError, schema: z.core.$ZodType): FileProblem[] {
  const problems: FileProblem[] = [];
  for (const issue of flattenUnions(error.issues)) {
    const path = issue.path.filter((key): key is Key => typeof key !== 'symbol');
    if (issue.code === 'unrecognized_keys') {
      const allowed = keysAt(schema, path);
      const parent = nodeAt(doc, path);
      for (const key of issue.keys) {
        // Point at the stray key itself, not at its value.
        const pair = isMap(parent) ? parent.items.find((item) => (isScalar(item.key) ? String(item.key.value) : String(item.key)) === key) : undefined;
        const offset = (pair?.key as Node | undefined)?.range?.[0];
        const where = offset !== undefined ? (({ line, col }) => ({ line, column: col }))(counter.linePos(offset)) : locate(doc, counter, [...path, key]);
        const near = nearestKey(key, allowed);
        problems.push({
          file,
          ...(where ? { line: where.line, column: where.column } : {}),
          path: formatPath([...path, key]),
          message: `is not a field here${near ? `; did you mean ${near}?` : '.'}${allowed.length > 0 ? ` Fields here: ${allowed.join(', ')}` : ''}`,
        });
      }
      continue;
    }
    const where = locate(doc, counter, path);
    const hint = where?.missing ? undefined : yamlBooleanHint(doc, path);
    const message = where?.missing ? `is missing; it ${issue.message}` : issue.message;
    problems.push({
      file,
      ...(where ? { line: where.line, column: where.column } : {}),
      path: formatPath(path),
      message: hint ? `${message}. Hint: ${hint}` : message,
    });
  }
  return problems.sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0));
}

/** `file:line:column: field.path: message`, the way compilers print it (editors make it clickable). */
export function formatProblem(problem: FileProblem): string {
  const place = problem.line !== undefined ? `${problem.file}:${problem.line}:${problem.column ?? 1}` : problem.file;
  return `${place}: ${problem.path ? `${problem.path}: ` : ''}${problem.message}`;
}
