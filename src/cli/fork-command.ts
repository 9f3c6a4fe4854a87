import type { ForkAnswer } from '../admin/fork-routes.js';
import { DEFAULT_SANDBOX_URL, type TargetSource, withSandbox } from '../admin-client/sandbox-target.js';
import { workspaceUrl } from '../workspaces/workspace-url.js';

const plural = (count: number, one: string) => `${count} ${count === 1 ? one : `${one}s`}`;

export interface ForkOptions {
  callbacks?: 'paused' | 'kept';
  url?: string;
  adminToken?: string;
  json?: boolean;
}

/**
 * `deposit-sandbox fork <source> <name>`: copies a workspace of a running sandbox under a new
 * name (POST /w/<source>/_sandbox/fork). Throws an Error that says what went wrong and which
 * sandbox was asked.
 */
export async function forkCommand(
  source: string,
  name: string,
  options: ForkOptions,
  from: TargetSource = 'flag',
  write: (text: string) => void = (text) => process.stdout.write(text),
): Promise<ForkAnswer> {
  const url = options.url ?? DEFAULT_SANDBOX_URL;
  const target = { url, source: options.url === undefined ? ('default' as const) : from, adminToken: options.adminToken, workspace: source };
  const answer = await withSandbox(target, (client) => client.request<ForkAnswer>('POST', '/fork', { to: name, callbacks: options.callbacks ?? 'paused' }));
  if (options.json) {
    write(`${JSON.stringify(answer, null, 2)}\n`);
    return answer;
  }
  const { trades, callbacks, jobs, held_callbacks } = answer.imported;
  const base = workspaceUrl(url, answer.workspace);
  write(
    `Forked workspace ${answer.from} as ${answer.workspace}: ${plural(trades, 'trade')}, ${plural(callbacks, 'callback')}, ${plural(jobs, 'pending step')}, clock at ${answer.imported.clock}.\n` +
      `  Its base URL: ${base}\n` +
      (held_callbacks > 0 ? `  ${plural(held_callbacks, 'pending callback')} held; send them with: POST ${base}/_sandbox/resume-callbacks\n` : ''),
  );
  return answer;
}
