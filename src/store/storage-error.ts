import { accessSync, constants } from 'node:fs';
import { StoreError } from './store-loader.js';

/**
 * A write to the data folder that failed, classified by what the user can do about it:
 *
 * - `full`: the disk or quota is full (ENOSPC, EDQUOT). Free space; writes resume by themselves.
 * - `unwritable`: the folder or a file in it refuses writes (EROFS, EPERM, EACCES: read-only
 *   mount, `chattr +i`, permissions).
 * - `failed`: any other error of the disk (EIO, ...).
 *
 * Whatever the kind, the change that needed the write was not made (the store put memory
 * back as it was), so nothing was acknowledged that is not on disk.
 */
export type StorageFailureKind = 'full' | 'unwritable' | 'failed';

const FULL = new Set(['ENOSPC', 'EDQUOT']);
const UNWRITABLE = new Set(['EROFS', 'EPERM', 'EACCES']);

export class StorageError extends Error {
  override name = 'StorageError';
  readonly kind: StorageFailureKind;
  /** The data folder. */
  readonly folder: string;
  /** The file or folder the write went to. */
  readonly path: string;
  /** The system error code (ENOSPC, EPERM...), or undefined when there was none. */
  readonly code: string | undefined;

  constructor(kind: StorageFailureKind, folder: string, path: string, code: string | undefined, message: string, options?: ErrorOptions) {
    super(message, options);
    this.kind = kind;
    this.folder = folder;
    this.path = path;
    this.code = code;
  }

  /** Wraps an error of a write to `path` in data folder `folder` (a StorageError is returned as it is). */
  static from(error: unknown, folder: string, path: string): StorageError {
    if (error instanceof StorageError) return error;
    const code = (error as NodeJS.ErrnoException | undefined)?.code;
    const detail = error instanceof Error ? error.message : String(error);
    const kind = storageFailureKind(code);
    return new StorageError(kind, folder, path, code, describeFailure(kind, folder, path, detail), { cause: error });
  }
}

export function storageFailureKind(code: string | undefined): StorageFailureKind {
  if (code !== undefined && FULL.has(code)) return 'full';
  if (code !== undefined && UNWRITABLE.has(code)) return 'unwritable';
  return 'failed';
}

function describeFailure(kind: StorageFailureKind, folder: string, path: string, detail: string): string {
  const notMade = 'Nothing was saved and the change was not made; reads keep working.';
  switch (kind) {
    case 'full':
      return `The disk holding the data folder ${folder} is full (${detail}). ${notMade} Free space there; writes resume by themselves, without a restart.`;
    case 'unwritable':
      return `The sandbox may not write to ${path} in the data folder ${folder} (${detail}). ${notMade} Make the folder and its files writable again (chmod, chattr -i, a read-write mount).`;
    default:
      return `Writing to the data folder ${folder} failed (${detail}). ${notMade} Check the disk; the next change tries again.`;
  }
}

/** Throws a StoreError (start-up refusal) when `path` may not be written. */
export function assertWritable(path: string, what: string): void {
  try {
    accessSync(path, constants.W_OK);
  } catch (error) {
    throw new StoreError(notWritable(path, what, error));
  }
}

/** The start-up refusal for a path the sandbox must write and may not (`what`: "the data folder"...). */
export function notWritable(path: string, what: string, error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code ?? 'error';
  const why =
    code === 'EROFS'
      ? 'the file system is mounted read-only'
      : code === 'EPERM'
        ? 'operation not permitted: it is probably immutable or append-only (chattr +i / +a)'
        : code === 'EACCES'
          ? 'permission denied: the user running the sandbox may not write there'
          : (error as Error).message;
  if (FULL.has(code)) {
    return `Cannot write ${what} ${path}: the disk is full (${why}). Free space there and start again, or start with --data <another folder>, or --in-memory.`;
  }
  return (
    `Cannot write ${what} ${path} (${code}: ${why}). The sandbox saves every change there, so it does not start rather than lose writes. ` +
    `Make it writable (chmod u+w, chattr -i, a read-write mount), or start with --data <another folder>, or --in-memory.`
  );
}
