import { workspaceUrl } from '../workspaces/workspace-url.js';
import { AdminClient, AdminClientError, DEFAULT_SANDBOX_URL } from './admin-client.js';

/** The environment variable admin commands read when --url is not given. */
export const SANDBOX_URL_ENV = 'DEPOSIT_SANDBOX_URL';

/** Where an admin command's sandbox address came from. */
export type TargetSource = 'flag' | 'env' | 'default' | 'ready-file';

/** The sandbox an admin command talks to, and how that was decided. */
export interface SandboxTarget {
  url: string;
  source: TargetSource;
  adminToken?: string | undefined;
  /** A workspace of that sandbox (/w/<name>); the unprefixed one when absent. */
  workspace?: string | undefined;
  /** With source 'ready-file': the file the URL was read from. */
  readyFile?: string | undefined;
}

/** "http://127.0.0.1:4242 (the default; ...)" : the sandbox a command talked to, for its messages. */
export function describeTarget(target: SandboxTarget): string {
  const url = `${target.url.replace(/\/+$/, '')}${target.workspace !== undefined ? ` workspace ${target.workspace}` : ''}`;
  if (target.source === 'flag') return `${url} (from --url)`;
  if (target.source === 'env') return `${url} (from ${SANDBOX_URL_ENV})`;
  if (target.source === 'ready-file') return `${url} (from the ready file ${target.readyFile ?? ''})`;
  return `${url} (the default; pass --url or set ${SANDBOX_URL_ENV} for another sandbox)`;
}

/** An admin client for the target (the default address when none was given), with its workspace. */
export function clientFor(target: SandboxTarget, options: { timeoutMs?: number } = {}): AdminClient {
  try {
    return new AdminClient({ url: workspaceUrl(target.url, target.workspace), ...(target.adminToken !== undefined ? { adminToken: target.adminToken } : {}), ...options });
  } catch (error) {
    throw withTarget(error, target);
  }
}

/**
 * The error with the sandbox it came from appended (every admin command error names it), as
 * an AdminClientError when it was one. The "could not reach" message already names the URL.
 */
export function withTarget(error: unknown, target: SandboxTarget): Error {
  const message = error instanceof Error ? error.message : String(error);
  const named = `${message.replace(/\s+$/, '')}\n  sandbox: ${describeTarget(target)}`;
  if (error instanceof AdminClientError) {
    const wrapped = new AdminClientError(named, error.status, error.code, error.envelope);
    wrapped.cause = error;
    return wrapped;
  }
  return new Error(named, { cause: error });
}

/** Runs `work` with a client of the target; a failure names the sandbox it talked to. */
export async function withSandbox<T>(target: SandboxTarget, work: (client: AdminClient) => Promise<T>): Promise<T> {
  const client = clientFor(target);
  try {
    return await work(client);
  } catch (error) {
    throw withTarget(error, target);
  }
}

export { DEFAULT_SANDBOX_URL };
