/**
 * A write to the data folder that failed while the sandbox runs (a request that needed it is
 * answered 503, or 507 on the admin API when the disk is full: src/http/errors.ts; what the
 * sandbox refuses at start-up is a DataFolderRefusedError), classified by what the user can do
 * about it:
 *
 * - `full`: the disk or quota is full (ENOSPC, EDQUOT). Free space; writes resume by themselves.
 * - `unwritable`: the folder or a file in it refuses writes (EROFS, EPERM, EACCES: read-only
 *   mount, `chattr +i`, permissions).
 * - `failed`: any other error of the disk (EIO, ...).
 *
 * Whatever the kind, the change that needed the write was not made (the store put memory
 * back as it was), so nothing was acknowledged that is not on disk.
 */
export type WriteFailureKind = 'full' | 'unwritable' | 'failed';

const FULL = new Set(['ENOSPC', 'EDQUOT']);
const UNWRITABLE = new Set(['EROFS', 'EPERM', 'EACCES']);

export class WriteFailedError extends Error {
  override name = 'WriteFailedError';
  readonly kind: WriteFailureKind;
  /** The data folder. */
  readonly folder: string;
  /** The file or folder the write went to. */
  readonly path: string;
  /** The system error code (ENOSPC, EPERM...), or undefined when there was none. */
  readonly code: string | undefined;

  constructor(kind: WriteFailureKind, folder: string, path: string, code: string | undefined, message: string, options?: ErrorOptions) {
    super(message, options);
    this.kind = kind;
    this.folder = folder;
    this.path = path;
    this.code = code;
  }

  /** Wraps an error of a write to `path` in data folder `folder` (a WriteFailedError is returned as it is). */
  static from(error: unknown, folder: string, path: string): WriteFailedError {
    if (error instanceof WriteFailedError) return error;
    const code = (error as NodeJS.ErrnoException | undefined)?.code;
    const detail = error instanceof Error ? error.message : String(error);
    const kind = writeFailureKind(code);
    return new WriteFailedError(kind, folder, path, code, describeFailure(kind, folder, path, detail), { cause: error });
  }
}

export function writeFailureKind(code: string | undefined): WriteFailureKind {
  if (code !== undefined && FULL.has(code)) return 'full';
  if (code !== undefined && UNWRITABLE.has(code)) return 'unwritable';
  return 'failed';
}

function describeFailure(kind: WriteFailureKind, folder: string, path: string, detail: string): string {
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
