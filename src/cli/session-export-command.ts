import { writeFileSync } from 'node:fs';
import { type SandboxTarget, withSandbox } from '../admin-client/sandbox-target.js';
import type { SessionHar } from '../sessions/session-har.js';

const plural = (count: number, one: string) => `${count} ${count === 1 ? one : `${one}s`}`;

export interface SessionExportOptions {
  output?: string;
}

/**
 * `deposit-sandbox session export`: a workspace's recorded session as HAR (GET
 * /_sandbox/session.har), written to `--output` or printed. Throws an Error that says what went
 * wrong and which sandbox was asked.
 */
export async function sessionExportCommand(target: SandboxTarget, options: SessionExportOptions = {}, write: (text: string) => void = (text) => process.stdout.write(text)): Promise<SessionHar> {
  const { har, url } = await withSandbox(target, async (client) => ({ har: await client.request<SessionHar>('GET', '/session.har'), url: client.url }));
  const text = `${JSON.stringify(har, null, 2)}\n`;
  if (options.output === undefined) {
    write(text);
    return har;
  }
  writeFileSync(options.output, text);
  const { entries, _sandbox: info } = har.log;
  const callbacks = entries.filter((entry) => entry._sandbox.direction === 'outbound').length;
  write(
    `Wrote the session of workspace ${info.workspace} of ${url} to ${options.output}: ${plural(entries.length - callbacks, 'request')}, ${plural(callbacks, 'callback attempt')}, ${plural(info.clock_moves.length, 'clock move')}` +
      `${info.dropped > 0 ? ` (its first ${info.dropped} entries were dropped to keep within --record-limit)` : ''}.\n`,
  );
  return har;
}
