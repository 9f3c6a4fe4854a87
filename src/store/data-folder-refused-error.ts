import { accessSync, constants } from 'node:fs';
import { writeFailureKind } from './write-failed-error.js';

/**
 * A data folder, or a file in it, that the sandbox refuses to open: held by another process,
 * not writable, or not a deposit-sandbox store (a db.json or a journal it cannot read). Nothing
 * is loaded and nothing is written; the message says what to do. Thrown at start-up (or when a
 * workspace's folder is opened), never for a write that fails while the sandbox runs, which is
 * a WriteFailedError.
 */
export class DataFolderRefusedError extends Error {
  override name = 'DataFolderRefusedError';
}

/** Throws a DataFolderRefusedError when `path` may not be written. */
export function assertWritable(path: string, what: string): void {
  try {
    accessSync(path, constants.W_OK);
  } catch (error) {
    throw new DataFolderRefusedError(notWritable(path, what, error));
  }
}

/** The refusal of a path the sandbox must write and may not (`what`: "the data folder"...). */
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
  if (writeFailureKind(code) === 'full') {
    return `Cannot write ${what} ${path}: the disk is full (${why}). Free space there and start again, or start with --data <another folder>, or --in-memory.`;
  }
  return (
    `Cannot write ${what} ${path} (${code}: ${why}). The sandbox saves every change there, so it does not start rather than lose writes. ` +
    `Make it writable (chmod u+w, chattr -i, a read-write mount), or start with --data <another folder>, or --in-memory.`
  );
}
