import type { Context } from 'hono';
import type { Sandbox } from '../sandbox.js';
import type { Server } from '../server/server.js';
import type { TradeRecord } from '../trades/trade.js';

/**
 * The sandbox that serves a request, set once per request by the workspace selection
 * (src/app.ts, src/workspaces/workspace-routes.ts) before any route runs: the default sandbox for unprefixed paths, the
 * workspace `name` for `/w/<name>/...`. Every route reads it from here (`c.get('sandbox')`), so
 * one app with one set of routes serves every workspace. Read it with `c.get`, not `c.var`: Hono
 * builds `c.var` anew, an object of every variable, on each read.
 */
export interface SandboxEnv {
  Variables: {
    /** The server the app serves: what all its workspaces share, and the registry. */
    server: Server;
    sandbox: Sandbox;
    /** The path prefix the request came with: '' or '/w/<name>'. */
    base: string;
    /**
     * The name of the scenario that took a create or build, set by its route once the trade is
     * saved, whether the answer is then sent, late or lost; read by what counts creates
     * (count-creates.ts) without reading the answer's headers back.
     */
    scenario: string | undefined;
    /**
     * The stored trade a provider endpoint answered with (201 of create and build, 200 of a read),
     * set by its route; read by the session's recording (src/http/record-session.ts), which writes
     * the answer again from it when the session is exported.
     */
    answered: TradeRecord | undefined;
    /** True on the three endpoints of the interface document, whose 401, 404 and 422 take the provider profile's errors.body (src/api/provider-error-body.ts). */
    providerErrors: boolean | undefined;
  };
}

/** The request's sandbox, or undefined when the request failed before one was chosen. */
export function sandboxOf(c: Context): Sandbox | undefined {
  return (c as Context<SandboxEnv>).get('sandbox') as Sandbox | undefined;
}
