import { AdminClient } from '../admin-client/admin-client.js';
import type { CallbackEvent } from '../store/callback-records.js';
import type { SandboxOptionsInput } from '../config/options.js';
import type { Merchant } from '../merchants/fixtures.js';
import type { Profile } from '../profile/profile-schema.js';
import { OptionsError } from '../sandbox.js';
import { listen } from '../server/listen.js';
import { createServer } from '../server/server.js';
import { CallbackWaiter, type CallbackMatch, type CallbackPredicate, type WaitForOptions } from './callback-waiter.js';
import type { StateDocument } from '../sessions/state-document.js';
import { type ForkHelperOptions, workspaceHandle, type WorkspaceHandle } from './workspace-handle.js';

/**
 * The options of `deposit-sandbox serve` (camelCase: `port`, `data`, `clock`, `adminToken`...),
 * with test-friendly defaults, plus `fsync`.
 */
export type SandboxOptions = SandboxOptionsInput & {
  /**
   * With `data`: fsync the journal at every group commit, so an acknowledged change also
   * survives a power cut (slower). Default false: it survives a crashed or killed process.
   */
  fsync?: boolean;
};

export interface RunningSandbox {
  /** Where it listens, e.g. http://127.0.0.1:41234 (no trailing slash). */
  readonly url: string;
  /** Typed helpers over the admin API (/_sandbox), over HTTP, with the admin token when one is set. */
  readonly admin: AdminClient;
  readonly callbacks: {
    /**
     * Resolves with the first callback that matches once it is delivered (or failed, with
     * `{ status: 'failed' }`), listening to the sandbox in-process (no polling). Matches
     * callbacks delivered before the call too, unless `includePast: false`. Rejects after
     * `timeout` ms (default 4000) with what it waited for and the callbacks it saw.
     */
    waitFor(match: CallbackMatch | CallbackPredicate, options?: WaitForOptions): Promise<CallbackEvent>;
  };
  /** The merchants of the fixtures (id, name, token, secret, rate); the bundled demo merchant first. */
  readonly merchants: readonly Merchant[];
  /**
   * The provider profile the workspace default follows now (`profile` of the options, `sandbox`
   * when left out, or one set since with PUT /_sandbox/profile), for signRequest() and
   * signatureHeader(). A workspace's own: what its setProfile() resolves with.
   */
  readonly profile: Profile;
  /**
   * A workspace of this sandbox (/w/<name>): its own trades, clock, callbacks and reset, with
   * its own `url`, `admin` and `callbacks.waitFor`. A unique name is made up when left out.
   */
  workspace(name?: string): WorkspaceHandle;
  /**
   * Copies the workspace default (the unprefixed one) under a new name, in one step; resolves
   * with the new workspace's handle. As WorkspaceHandle.fork.
   *
   * @example
   *   // Prepare once (trades in the states the tests need), then one fork per test:
   *   const ws = await sandbox.fork(`test-${n}`);
   */
  fork(name: string, options?: ForkHelperOptions): Promise<WorkspaceHandle>;
  /** The workspace default as a state document (GET /_sandbox/state). */
  state(): Promise<StateDocument>;
  /** Stops listening, lets requests in flight finish, stops the clock's jobs, flushes the store. Safe to call twice. */
  close(): Promise<void>;
}

/**
 * Starts a sandbox in this process and serves it over HTTP. Defaults differ from the CLI's:
 * port 0 (a free port), host 127.0.0.1, and an in-memory store unless `data` is given.
 *
 *   const sandbox = await startSandbox();
 *   await fetch(`${sandbox.url}/api/v1/trades/deposit/create`, ...);
 *   await sandbox.close();
 */
export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const { fsync, ...rest } = options;
  const inMemory = rest.inMemory ?? rest.data === undefined;
  if (fsync && (inMemory || rest.data === undefined)) {
    throw new OptionsError('Invalid options:\n  --fsync: needs a data folder; pass `data: <dir>` (an in-memory store has nothing to fsync).');
  }
  // The store is made by createServer() once it holds the data folder's lock (an adapter made here would skip the lock).
  const deposit = await createServer({ ...rest, port: rest.port ?? 0, host: rest.host ?? '127.0.0.1', inMemory }, { deferStart: true, ...(fsync ? { fsync: true } : {}) });
  const sandbox = deposit.root;
  const server = await listen(deposit).catch(async (error: NodeJS.ErrnoException) => {
    await deposit.close();
    if (error.code === 'EADDRINUSE') {
      throw new Error(`Port ${sandbox.options.port} on ${sandbox.options.host} is already in use. Leave the port out (0 picks a free one), or stop the other process.`, { cause: error });
    }
    throw error;
  });
  const waiter = new CallbackWaiter(sandbox);
  const admin = new AdminClient({ url: server.url, ...(sandbox.options.adminToken !== undefined ? { adminToken: sandbox.options.adminToken } : {}) });
  let closing: Promise<void> | undefined;
  const waiters = new Set<CallbackWaiter>();
  const adminToken = sandbox.options.adminToken;
  return {
    url: server.url,
    admin,
    callbacks: { waitFor: (match, waitOptions) => waiter.waitFor(match, waitOptions) },
    merchants: sandbox.merchants.list(),
    get profile() {
      return sandbox.profile;
    },
    workspace: (name) => workspaceHandle({ url: server.url, workspaces: deposit.workspaces, adminToken, waiters }, name),
    fork: (name, forkOptions) => workspaceHandle({ url: server.url, workspaces: deposit.workspaces, adminToken, waiters }, 'default').fork(name, forkOptions),
    state: () => admin.request<StateDocument>('GET', '/state'),
    close() {
      closing ??= (async () => {
        waiter.closeAll('The sandbox was closed while waitFor was waiting for a callback.');
        for (const other of waiters) other.closeAll('The sandbox was closed while waitFor was waiting for a callback.');
        await server.close();
      })();
      return closing;
    },
  };
}
