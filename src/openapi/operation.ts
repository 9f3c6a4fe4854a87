import type { z } from 'zod';

/** Who may call an operation: the provider's two auth headers, the admin token, or anyone. */
export type OperationAuth = 'x-auth' | 'x-token' | 'admin' | 'open';

export interface OperationResponse {
  description: string;
  /** A JSON answer of this shape (registered in openapi-document.ts). */
  schema?: z.ZodType;
  /** Another answer: an HTML page, or a JSON document described by its own standard. */
  content?: { mediaType: 'text/html' | 'text/css' | 'text/javascript' | 'application/json'; description?: string } | Record<string, unknown>;
  headers?: Record<string, string>;
  /** OpenAPI links: operations a client can call next with values of this answer (or its request). */
  links?: Record<string, OperationLink>;
}

/**
 * An OpenAPI link: the operation to call, and each of its parameters as a runtime expression
 * (`$response.body#/id`, `$request.body#/merchant`).
 */
export interface OperationLink {
  operationId: string;
  parameters: Record<string, string>;
  description: string;
}

/** One row of the route table /openapi.json is built from. */
export interface Operation {
  method: 'get' | 'post' | 'put' | 'delete';
  /** OpenAPI path template, e.g. /api/v1/trades/{merchant}/{uuid}. */
  path: string;
  operationId: string;
  tag: 'provider' | 'sandbox' | 'pages';
  summary: string;
  description?: string;
  auth: OperationAuth;
  pathParams?: Record<string, string>;
  /** Path parameters that are UUIDs. */
  uuidParams?: readonly string[];
  query?: z.ZodObject;
  /** Every query parameter may be sent empty (`?state=`), which counts as absent. */
  queryAllowsEmpty?: boolean;
  /** A form body (application/x-www-form-urlencoded) instead of JSON. */
  form?: z.ZodType;
  requestHeaders?: Record<string, string>;
  /** A JSON body of this shape (registered in openapi-document.ts). */
  body?: z.ZodType;
  /** The JSON body is read whatever its Content-Type, and no body at all counts as `{}` (jsonBody's lenient, src/http/body.ts). */
  anyContentType?: boolean;
  /** A YAML body of this shape (a scenario file), read whatever its Content-Type. */
  yaml?: z.ZodType;
  responses: Record<number, OperationResponse>;
}

/** A schema named in /openapi.json's components: its id there, and what it is. */
export type Component = [schema: z.ZodType, meta: { id: string; description?: string }];
