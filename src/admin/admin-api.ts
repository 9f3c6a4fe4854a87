import type { SuccessStatusCode } from 'hono/utils/http-status';
import type { ExtractSchema } from 'hono/types';
import type { serverWorkspaceRoutes } from '../workspaces/workspace-routes.js';
import type { AdminApp } from './routes.js';

/**
 * The admin API as its clients call it (the AdminClient of src/admin-client, the CLI through it,
 * the dashboard's script): every route under /_sandbox with its methods, inputs and answers, as
 * the route declarations give them (the schema Hono's types build from `app.openapi(route, ...)`),
 * and the path of a call. A route declared in src/admin (or among the server's own) is callable,
 * typed, with no line here.
 */

/** The server's own routes under /_sandbox (the workspace list), by their path after /_sandbox. */
type ServerRoutes = ExtractSchema<ReturnType<typeof serverWorkspaceRoutes>>;
type UnderSandbox<S> = { [P in keyof S as P extends `/_sandbox${infer Rest}` ? Rest : never]: S[P] };

/** Every admin route, by its path after /_sandbox (`/trades/:id`), then by method (`$get`). */
export type AdminApi = ExtractSchema<AdminApp> & UnderSandbox<ServerRoutes>;

export type AdminPath = keyof AdminApi & string;
export type AdminMethod<P extends AdminPath> = keyof AdminApi[P] extends `$${infer M}` ? Uppercase<M> : never;

type Endpoint<P extends AdminPath, M extends AdminMethod<P>> = AdminApi[P][`$${Lowercase<M>}` & keyof AdminApi[P]];

/** What a call sends: its path parameters (`param`), query (`query`) and JSON body (`json`), those the route declares. */
export type AdminInput<P extends AdminPath, M extends AdminMethod<P>> = Endpoint<P, M> extends { input: infer I } ? I : never;

/** The arguments after the path: the input, which may be left out when nothing in it is required. */
export type AdminArgs<P extends AdminPath, M extends AdminMethod<P>> = Partial<AdminInput<P, M>> extends AdminInput<P, M> ? [input?: AdminInput<P, M>] : [input: AdminInput<P, M>];

/** The answer of a call that succeeded (a 2xx the route declares). */
export type AdminAnswer<P extends AdminPath, M extends AdminMethod<P>> = Extract<Endpoint<P, M>, { status: SuccessStatusCode }> extends { output: infer O } ? O : never;

/**
 * The path of a call under /_sandbox: `path` with its `:name` parameters filled in, each
 * percent-encoded, and the defined values of `query` after a `?` (none: no `?`).
 */
export function adminPath(path: string, input: { param?: Record<string, string>; query?: Record<string, unknown> } = {}): string {
  const filled = path.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(input.param?.[name] ?? ''));
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(input.query ?? {})) if (value !== undefined) query.set(name, String(value));
  const text = query.toString();
  return text ? `${filled}?${text}` : filled;
}
