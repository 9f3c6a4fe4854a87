import { AdminClient } from '../admin-client/admin-client.js';
import type { CallbackEvent } from '../callbacks/records.js';
import type { SandboxOptionsInput } from '../config/options.js';
import type { Merchant } from '../merchants/fixtures.js';
import { createSandbox, type Sandbox } from '../sandbox.js';
import { listen } from '../server.js';
import { CallbackWaiter, type CallbackMatch, type CallbackPredicate, type WaitForOptions } from './callback-waiter.js';

/** The options of `deposit-sandbox serve`, with test-friendly defaults. */
export type StartSandboxOptions = SandboxOptionsInput;

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
  /** The sandbox's parts (store, clock, lifecycle, callbacks...), for what the admin API does not cover. */
  readonly sandbox: Sandbox;
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
export async function startSandbox(options: StartSandboxOptions = {}): Promise<RunningSandbox> {
  const sandbox = await createSandbox({
    ...options,
    port: options.port ?? 0,
    host: options.host ?? '127.0.0.1',
    inMemory: options.inMemory ?? options.data === undefined,
  }, undefined, { deferStart: true });
  const server = await listen(sandbox).catch(async (error: NodeJS.ErrnoException) => {
    await sandbox.close();
    if (error.code === 'EADDRINUSE') {
      throw new Error(`Port ${sandbox.options.port} on ${sandbox.options.host} is already in use. Leave the port out (0 picks a free one), or stop the other process.`, { cause: error });
    }
    throw error;
  });
  const waiter = new CallbackWaiter(sandbox);
  const admin = new AdminClient({ url: server.url, ...(sandbox.options.adminToken !== undefined ? { adminToken: sandbox.options.adminToken } : {}) });
  let closing: Promise<void> | undefined;
  return {
    url: server.url,
    admin,
    callbacks: { waitFor: (match, waitOptions) => waiter.waitFor(match, waitOptions) },
    merchants: sandbox.merchants.list(),
    sandbox,
    close() {
      closing ??= (async () => {
        waiter.closeAll('The sandbox was closed while waitFor was waiting for a callback.');
        await server.close();
      })();
      return closing;
    },
  };
}
