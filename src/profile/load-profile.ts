import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { isScalar, LineCounter, parseDocument, type Document } from 'yaml';
import { z } from 'zod';
import { formatPath } from '../config/issues.js';
import { nearestKey } from '../config/nearest-key.js';
import { describeYamlIssues, flattenUnions, locate, nodeAt, type FileProblem } from '../config/yaml-issues.js';
import { BUILTIN_PROFILE_NAMES, type BuiltinProfileName } from './builtin-profile-names.js';
import { mergeProfile } from './merge-profile.js';
import { ProfileError } from './profile-error.js';
import { profileFileSchema, profileSchema, type Profile } from './profile-schema.js';
import { PARSED_ONCE } from '../config/parsed-once.js';

/** The built-in profiles shipped with the package (works from src/, dist/ and an installed package). */
export const BUILTIN_PROFILES = fileURLToPath(new URL('../../profiles/', import.meta.url));

/** The profile a server follows when none is named: the sandbox's own choices. */
export const DEFAULT_PROFILE: BuiltinProfileName = 'sandbox';

/** How many times a profile's YAML aliases may be expanded in all (as for scenario files). */
const MAX_ALIAS_COUNT = 100;

type Key = string | number;

/** The built-ins as last parsed, by name, with the text they were parsed from. */
const builtins = new Map<string, { text: string; profile: Profile }>();

const isBuiltin = (name: string): name is BuiltinProfileName => (BUILTIN_PROFILE_NAMES as readonly string[]).includes(name);

/** A source names a file when it has a folder or a profile file's extension; otherwise a built-in. */
const looksLikePath = (source: string) => /[/\\]/.test(source) || /\.(ya?ml|json)$/i.test(source);

/**
 * A provider profile: a built-in by name (`sandbox`, `strict`, ...), or a YAML or JSON file by
 * its path (`./my-provider.yaml`: a source with a `/` or a .yaml, .yml or .json extension is a
 * path). Returns the resolved profile, `extends` applied, frozen. Throws a ProfileError whose
 * problems carry `file:line:column`, the key and what is allowed; an unknown built-in name
 * lists the built-ins.
 *
 * @example
 * const profile = loadProfile('md5-colon');
 * profile.requests.signature.separator // ':'
 * loadProfile('./my-provider.yaml'); // a file: `name: my-provider`, `extends: sandbox`, and what differs
 */
export function loadProfile(source: string): Profile {
  if (looksLikePath(source)) {
    let text: string;
    try {
      text = readFileSync(source, 'utf8');
    } catch (error) {
      throw new ProfileError([{ file: source, path: '', message: `cannot be read: ${(error as Error).message}` }]);
    }
    return parseProfile(text, source);
  }
  if (isBuiltin(source)) return builtinProfile(source, []);
  const near = nearestKey(source, BUILTIN_PROFILE_NAMES);
  throw new ProfileError([
    {
      file: source,
      path: '',
      message: `is not a built-in profile${near ? `; did you mean ${near}?` : '.'} The built-ins: ${BUILTIN_PROFILE_NAMES.join(', ')}. A profile file is named by its path, e.g. ./my-provider.yaml`,
    },
  ]);
}

/**
 * A profile from the text of a YAML or JSON file (JSON is read by the same YAML parser, so its
 * problems get lines and columns too). `file` names it in the problems.
 *
 * @example
 * parseProfile('name: my-provider\nextends: sandbox\ncallbacks:\n  acknowledge: ok-text\n', 'my-provider.yaml').callbacks.acknowledge // 'ok-text'
 */
export function parseProfile(text: string, file = '(profile)'): Profile {
  return resolve(text, file, []);
}

function builtinProfile(name: BuiltinProfileName, chain: readonly string[]): Profile {
  const file = `${BUILTIN_PROFILES}${name}.yaml`;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ProfileError([{ file, path: '', message: `cannot be read: ${(error as Error).message} (the built-in profiles ship in the package's profiles/ folder)` }]);
  }
  const known = builtins.get(name);
  if (known?.text === text) return known.profile;
  const profile = resolve(text, file, chain);
  builtins.set(name, { text, profile });
  return profile;
}

function resolve(text: string, file: string, chain: readonly string[]): Profile {
  const counter = new LineCounter();
  const doc = parseDocument(text, { lineCounter: counter, prettyErrors: true });
  if (doc.errors.length > 0) {
    throw new ProfileError(
      doc.errors.map((error) => ({
        file,
        ...(error.linePos ? { line: error.linePos[0].line, column: error.linePos[0].col } : {}),
        path: '',
        message: `is not valid YAML or JSON: ${(error.message.split('\n')[0] ?? '').replace(/ at line \d+, column \d+:?$/, '')}`,
      })),
    );
  }
  if (doc.contents === null) {
    throw new ProfileError([{ file, line: 1, column: 1, path: '', message: 'is empty; a profile needs at least a name, e.g. "name: my-provider" and "extends: sandbox"' }]);
  }
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (error) {
    if (!(error instanceof ReferenceError)) throw error;
    throw new ProfileError([{ file, line: 1, column: 1, path: '', message: `has YAML aliases that cannot be expanded (${error.message}); write the values out` }]);
  }

  const written = profileFileSchema.safeParse(data, PARSED_ONCE);
  if (!written.success) throw new ProfileError(describeFileIssues(file, text, doc, counter, written.error));
  const { $schema: _schema, ...own } = written.data;

  let base: Profile | undefined;
  if (own.extends !== undefined) {
    if (chain.includes(own.extends)) {
      const where = locate(doc, counter, ['extends']);
      throw new ProfileError([
        { file, ...(where ? { line: where.line, column: where.column } : {}), path: 'extends', message: `makes a circle of built-ins: ${[...chain, own.extends].join(' -> ')}` },
      ]);
    }
    base = builtinProfile(own.extends, [...chain, own.extends]);
  }
  const { extends: _inherited, ...baseFields } = base ?? {};
  const merged = { ...mergeProfile(baseFields, own), name: own.name, ...(own.extends !== undefined ? { extends: own.extends } : {}) };
  const resolved = profileSchema.safeParse(merged, PARSED_ONCE);
  if (!resolved.success) throw new ProfileError(describeResolvedIssues(file, doc, counter, resolved.error, own.extends === undefined ? undefined : { name: own.extends, profile: baseFields }));
  return deepFreeze(resolved.data);
}

/**
 * The problems of the file as written: describeYamlIssues, but a wrong `{{placeholder}}` of
 * errors.body is placed on the placeholder itself, inside the template.
 */
function describeFileIssues(file: string, text: string, doc: Document, counter: LineCounter, error: z.ZodError): FileProblem[] {
  const placed: FileProblem[] = [];
  const rest: z.core.$ZodIssue[] = [];
  for (const issue of error.issues) {
    const placeholder = issue.code === 'custom' ? issue.params?.['placeholder'] : undefined;
    if (typeof placeholder !== 'string') {
      rest.push(issue);
      continue;
    }
    const path = issue.path.filter((key): key is Key => typeof key !== 'symbol');
    const node = nodeAt(doc, path);
    const range = isScalar(node) ? node.range : undefined;
    const found = range ? text.slice(range[0], range[1]).indexOf(placeholder) : -1;
    const where = range && found >= 0 ? counter.linePos(range[0] + found) : undefined;
    const near = where ? { line: where.line, column: where.col } : locate(doc, counter, path);
    placed.push({ file, ...(near ? { line: near.line, column: near.column } : {}), path: formatPath(path), message: issue.message });
  }
  const described = rest.length > 0 ? describeYamlIssues(file, doc, counter, new z.ZodError(rest), profileFileSchema) : [];
  return [...described, ...placed].sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0));
}

/**
 * The problems of the profile once `extends` is applied: a key the file lacks and no built-in
 * gives, or two keys that do not go together (one of them perhaps inherited: then the message
 * says which built-in it comes from and points at the key the file does hold).
 */
function describeResolvedIssues(file: string, doc: Document, counter: LineCounter, error: z.ZodError, base: { name: string; profile: object } | undefined): FileProblem[] {
  const problems: FileProblem[] = [];
  for (const issue of flattenUnions(error.issues)) {
    const path = issue.path.filter((key): key is Key => typeof key !== 'symbol');
    const other = issue.code === 'custom' ? issue.params?.['other'] : undefined;
    const sibling = typeof other === 'string' ? [...path.slice(0, -1), other] : undefined;
    const at = nodeAt(doc, path) !== undefined ? path : sibling && nodeAt(doc, sibling) !== undefined ? sibling : undefined;
    const inherited = base ? valueAt(base.profile, path) : undefined;
    let message = issue.message;
    if (at === undefined && inherited !== undefined) message = `${message} (${formatPath(path)} is ${JSON.stringify(inherited)}, from extends: ${base?.name}; set it in this file)`;
    else if (at === undefined) message = `is missing; it ${message}${base ? '' : '. Or start from a built-in with "extends: sandbox" and write only what differs'}`;
    else if (at !== path) message = `${message} (${formatPath(path)} is ${JSON.stringify(valueAt(base?.profile ?? {}, path))}, from extends: ${base?.name})`;
    const where = locate(doc, counter, at ?? path);
    problems.push({ file, ...(where ? { line: where.line, column: where.column } : {}), path: formatPath(path), message });
  }
  return problems.sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0));
}

function valueAt(value: unknown, path: readonly Key[]): unknown {
  let current = value;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[String(key)];
  }
  return current;
}

/** Profiles are shared (a built-in by every sandbox of the process): none may be changed. */
function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}
