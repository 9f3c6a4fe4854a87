import type { Logger } from '../log/logger.js';

/** The CLI's logger: events on stdout, warnings on stderr, each line with the `deposit-sandbox:` prefix (written here only). */
export function consoleLogger(out: NodeJS.WritableStream = process.stdout, err: NodeJS.WritableStream = process.stderr): Logger {
  return {
    info: (line) => void out.write(`deposit-sandbox: ${line}\n`),
    warn: (line) => void err.write(`deposit-sandbox: ${line}\n`),
  };
}
