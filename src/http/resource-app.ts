import { OpenAPIHono, type RouteConfig } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { bodyReaderOf, type FormHook } from './request-body.js';
import type { SandboxEnv } from './sandbox-env.js';
import { validationError } from './validation.js';

/**
 * The app of one resource (src/admin/*-routes.ts, the provider's, the pages'): each route declared
 * once with @hono/zod-openapi's createRoute() (method, path, request and answer schemas, and what
 * /openapi.json says of them) and added with its handler, `app.openapi(route, handler)`. The
 * declaration is the route's row of /openapi.json (src/openapi/route-table.ts) and its types in
 * the typed client (`hc` of hono/client over the app's type); the path parameters and the query
 * are validated with its schemas, a failure going to the one error pipeline: the defaultHook
 * throws validationError()'s 422, which app.onError renders.
 *
 * The body is read otherwise: by the reader declared with it (jsonRequest(), yamlRequest(),
 * formRequest(), src/http/request-body.ts), the one reader of src/http/body.ts with its bounds and
 * refusals, not by @hono/zod-openapi's validator, which would read and parse it a second time
 * with other rules (a 415 for a type jsonBody() reads, no body counted as `{}`). So a route is
 * added without its body, its reader around its middleware; the declaration, body included,
 * goes to the document as written.
 */
export class ResourceApp extends OpenAPIHono<SandboxEnv> {
  constructor() {
    super({
      defaultHook: (result) => {
        if (!result.success) throw validationError(result.error);
      },
    });
    // OpenAPIHono's own openapi(): adds the route with the validators of its parameters and query.
    const add = this.openapi;
    this.openapi = (route, handler, hook) => {
      const { middleware, hide, ...declaration } = route as RouteConfig;
      const { body, ...request } = declaration.request ?? {};
      const reader = body === undefined ? undefined : bodyReaderOf(body);
      if (body !== undefined && reader === undefined) {
        throw new Error(`${declaration.method.toUpperCase()} ${declaration.path}: declare its body with jsonRequest(), yamlRequest() or formRequest() (src/http/request-body.ts)`);
      }
      if (!hide) this.openAPIRegistry.registerPath(declaration);
      const own: MiddlewareHandler[] = middleware === undefined ? [] : Array.isArray(middleware) ? middleware : [middleware];
      const check = reader?.check?.((hook ?? this.defaultHook) as FormHook | undefined);
      const around = [...(reader?.read ? [reader.read] : []), ...own, ...(check ? [check] : [])];
      return add({ ...declaration, request, middleware: around, hide: true } as typeof route, handler, hook);
    };
  }
}
