/**
 * One voice: every line a sandbox writes goes through the logger it was given at creation
 * (src/sandbox.ts), the default sandbox and each workspace alike. Where the lines go is the
 * caller's choice: the CLI writes them to the terminal with the `deposit-sandbox:` prefix
 * (src/cli/console-logger.ts); a sandbox given none says nothing.
 */
export interface Logger {
  /** A notable event: a scenario taking a create, a workspace expiring. */
  info(line: string): void;
  /** Something the sandbox survives but someone should know: a failed write, a damaged journal, a bug. */
  warn(line: string): void;
}

/** An error as one log line's tail: its stack when it has one, else its text. */
export function describeError(error: unknown): string {
  return error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : String(error);
}

/** Says nothing: the default of every part that takes a logger or a `warn`. */
export const quietLogger: Logger = { info() {}, warn() {} };

/**
 * `logger` with methods that can be handed on alone (`warn: logger.warn`), or the quiet logger
 * when there is none: a sandbox given no logger says nothing.
 */
export function loggerOrQuiet(logger: Logger | undefined): Logger {
  return logger === undefined ? quietLogger : { info: (line) => logger.info(line), warn: (line) => logger.warn(line) };
}

/** The lines of workspace `name` through `logger`, each marked with the workspace. */
export function workspaceLogger(logger: Logger, name: string): Logger {
  const mark = `workspace "${name}": `;
  return { info: (line) => logger.info(`${mark}${line}`), warn: (line) => logger.warn(`${mark}${line}`) };
}
