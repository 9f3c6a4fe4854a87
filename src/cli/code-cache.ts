/**
 * A V8 code cache for the bundled CLI (dist/cli/*.cjs). Node compiles a script from its source on
 * every start, and compiling the server's code is most of a `serve` start. With a cache, V8 reads
 * the code it made last time instead (Node 22 offers the same as
 * `module.enableCompileCache()`; the package supports Node 20, which has no such switch, so the
 * CLI keeps its own, scoped to its own files).
 *
 * bin/deposit-sandbox.js calls useCodeCache() (from this file's CommonJS build,
 * dist/cli/code-cache.cjs) before it requires the CLI's entry. Each bundled file is then compiled
 * with the cache kept for its exact contents, if there is one; the files that had none (or whose
 * cache V8 refused: another Node, other V8 flags) get one written a little after the start
 * (SAVE_AFTER_MS: a `serve` may run for hours) or when the process exits,
 * whichever comes first, with the code of every function the command ran by then, not only the
 * top level.
 *
 * The cache is an optimisation only: a folder that cannot be made or written, a damaged file, a
 * cache from another Node, all end in a compile from source, as without it. The files are in
 * `<tmp>/deposit-sandbox-code-cache-<uid>/<node version>-<arch>/`, one per bundled file's SHA-256,
 * used only when those folders belong to this user and nobody else may write to them (on Windows,
 * where the temporary folder is the user's own and has no such modes, they are used as they are).
 * `NODE_DISABLE_COMPILE_CACHE=1`, the variable Node reads for its own cache, turns this one off.
 */
import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, extname, join } from 'node:path';
import { constants, Script } from 'node:vm';

/** The folder of this user's cache, or undefined when it is turned off. */
export function codeCacheFolder(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const off = env['NODE_DISABLE_COMPILE_CACHE'];
  if (off !== undefined && off !== '' && off !== '0') return undefined;
  const user = process.getuid?.() ?? 'user';
  return join(tmpdir(), `deposit-sandbox-code-cache-${user}`);
}

/** What a CodeCache did so far (the tests read it): files compiled from their cache, and from source. */
export interface CodeCacheCounts {
  fromCache: number;
  fromSource: number;
}

/**
 * How many bytes the cache of one Node may hold: every build has new files, so the caches of old
 * builds are removed, least recently used first, when a save leaves more than this.
 */
export const CODE_CACHE_LIMIT_BYTES = 32 * 1024 * 1024;

/** How long after the first file compiled from source the missing cache is written, unless the process exits first. */
export const SAVE_AFTER_MS = 2_000;

type CompiledWrapper = (exports: unknown, require: NodeJS.Require, module: unknown, filename: string, dirname: string) => unknown;

/**
 * Compiles CommonJS sources with a code cache kept in `root`/<node version>-<arch>/; save() writes
 * what was missing. Nothing here changes Node's loader: useCodeCache() does, for the CLI's files only.
 */
export class CodeCache {
  readonly counts: CodeCacheCounts = { fromCache: 0, fromSource: 0 };
  readonly #root: string;
  readonly #folder: string;
  readonly #limitBytes: number;
  readonly #unsaved: { script: Script; file: string }[] = [];
  #usable: boolean | undefined;

  constructor(root: string, limitBytes = CODE_CACHE_LIMIT_BYTES) {
    this.#root = root;
    this.#limitBytes = limitBytes;
    this.#folder = join(root, `${process.version}-${process.arch}`);
  }

  /** The module wrapper of `source` (Node's CommonJS function around it), compiled from the cache when it holds this source. */
  compile(source: string, filename: string): CompiledWrapper {
    const file = join(this.#folder, `${createHash('sha256').update(source).digest('hex')}.bin`);
    const cachedData = this.#usableFolder() ? readIfThere(file) : undefined;
    // One line, so that the source's line numbers stay those of the file in stack traces; an
    // import() in it loads as in any other script of the process.
    const script = new Script(`(function (exports, require, module, __filename, __dirname) { ${source}\n})`, {
      filename,
      cachedData,
      importModuleDynamically: constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
    });
    if (cachedData !== undefined && !script.cachedDataRejected) {
      this.counts.fromCache++;
      // Used now: the pruning removes the least recently used files first.
      touch(file);
    } else {
      this.counts.fromSource++;
      this.#unsaved.push({ script, file });
    }
    return script.runInThisContext() as CompiledWrapper;
  }

  /**
   * Writes the cache of every file compiled from source, each in one rename (a reader never sees
   * half a file), then removes the least recently used files beyond the limit. Never throws.
   */
  save(): void {
    const unsaved = this.#unsaved.splice(0);
    if (unsaved.length === 0 || !this.#usableFolder()) return;
    for (const { script, file } of unsaved) {
      const temporary = `${file}.${process.pid}.tmp`;
      try {
        writeFileSync(temporary, script.createCachedData(), { mode: 0o600 });
        renameSync(temporary, file);
      } catch {
        rmSync(temporary, { force: true });
      }
    }
    this.#prune();
  }

  /** Removes the least recently used files (their times are set at each use) until the folder holds at most the limit. */
  #prune(): void {
    try {
      const files = readdirSync(this.#folder)
        .map((name) => ({ path: join(this.#folder, name), stat: statSync(join(this.#folder, name)) }))
        .sort((a, b) => b.stat.mtimeMs - a.stat.mtimeMs);
      let kept = 0;
      for (const { path, stat } of files) {
        kept += stat.size;
        if (kept > this.#limitBytes) rmSync(path, { force: true });
      }
    } catch {
      // Another process removed a file meanwhile: the next save prunes again.
    }
  }

  /**
   * Whether the folder can be trusted and used: made if missing (private to this user), and it and
   * its root real folders (not links) owned by this user and writable by nobody else.
   */
  #usableFolder(): boolean {
    if (this.#usable !== undefined) return this.#usable;
    const own = (folder: string) => {
      mkdirSync(folder, { recursive: true, mode: 0o700 });
      const stat = lstatSync(folder);
      if (process.platform === 'win32') return stat.isDirectory();
      return stat.isDirectory() && stat.uid === process.getuid?.() && (stat.mode & 0o022) === 0;
    };
    try {
      this.#usable = own(this.#root) && own(this.#folder);
    } catch {
      this.#usable = false;
    }
    return this.#usable;
  }
}

interface CompilingModule {
  exports: unknown;
  _compile(source: string, filename: string, ...rest: unknown[]): unknown;
}

/**
 * Compiles the CommonJS files in `bundleFolder` (the CLI's bundle: *.cjs) through a CodeCache, and
 * saves the missing cache SAVE_AFTER_MS after the first file compiled from source, or when the
 * process exits. Every other file loads as Node loads it. Returns the cache, or undefined when it
 * is turned off (codeCacheFolder()).
 */
export function useCodeCache(bundleFolder: string, root = codeCacheFolder()): CodeCache | undefined {
  if (root === undefined) return undefined;
  const cache = new CodeCache(root);
  const prototype = (Module as unknown as { prototype: CompilingModule }).prototype;
  const compile = prototype._compile;
  let scheduled = false;
  prototype._compile = function (this: CompilingModule, source: string, filename: string, ...rest: unknown[]) {
    if (dirname(filename) !== bundleFolder || extname(filename) !== '.cjs') return compile.call(this, source, filename, ...rest);
    const wrapper = cache.compile(source, filename);
    // The timer keeps no process alive that would otherwise end.
    if (!scheduled && cache.counts.fromSource > 0) {
      scheduled = true;
      setTimeout(() => cache.save(), SAVE_AFTER_MS).unref();
    }
    return wrapper.call(this.exports, this.exports, createRequire(filename), this, filename, bundleFolder);
  };
  process.once('exit', () => cache.save());
  return cache;
}

function touch(file: string): void {
  try {
    const now = new Date();
    utimesSync(file, now, now);
  } catch {
    // Removed meanwhile by another process's pruning: it is written again when missed.
  }
}

function readIfThere(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}
