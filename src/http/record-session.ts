import type { HttpBindings } from '@hono/node-server';
import type { Context, MiddlewareHandler } from 'hono';
import { ACCEPTED_HEADERS, acceptedAnswer, viewOf } from '../sessions/provider-answers.js';
import { JSON_BODY, TEXT_BODY } from './body.js';
import { ANSWER_LOST } from './lose-answer.js';
import type { SandboxEnv } from './sandbox-env.js';

/** What a path is after the workspace's prefix: a provider endpoint, the admin API, a payment page. */
type Area = 'provider' | 'admin' | 'page';

/** Statuses whose answers carry no body. */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/**
 * Whether a request is recorded, and as what: the provider endpoints and the admin API, and what a
 * payer sends to the payment page (its forms). The dashboard's page and files, the payment pages
 * themselves, /openapi.json and the recording's own download are not.
 */
function areaOf(method: string, rest: string): Area | undefined {
  if (rest.startsWith('/api/')) return 'provider';
  if (rest.startsWith('/_sandbox/')) {
    if (rest === '/_sandbox/' || rest.startsWith('/_sandbox/assets/') || rest === '/_sandbox/session.har') return undefined;
    return 'admin';
  }
  if (rest.startsWith('/pay/') && method !== 'GET' && method !== 'HEAD') return 'page';
  return undefined;
}

/** The text of a form a route read (Hono keeps it), or undefined when none was read (refused before, or cut). */
function formText(c: Context): Promise<string> | undefined {
  for (const _ in c.req.bodyCache) return c.req.text().catch(() => '');
  return undefined;
}

/**
 * Records each request of the provider endpoints, the admin API and the payment page's forms in
 * its workspace's session (src/sessions/session-recorder.ts), with its answer, after the route
 * answered, and a move of the sandbox clock an admin request made. It keeps what it finds as it
 * is (the request's headers as Node read them, the body text the route read, the answer's
 * headers) and masks nothing yet: src/sessions/resolve-entry.ts masks and writes each entry out
 * when the session is exported. An accepted create or read is written again then from the trade
 * its route answered with (`answered`, src/sessions/provider-answers.ts), and over a socket it is
 * packed as bytes (src/sessions/packed-requests.ts); any other answer's body is read here as text and handed on
 * as a new Response of the same status and headers. A request refused before it reached the
 * routes (a guard, an unknown workspace name) is not recorded, and an answer lost on purpose
 * (the lost-answer scenario) is recorded as status 0.
 */
export const recordSession: MiddlewareHandler<SandboxEnv> = async (c, next) => {
  const sandbox = c.get('sandbox');
  const recorder = sandbox.session;
  if (!recorder.enabled) return next();
  const method = c.req.method;
  const path = c.req.path;
  const rest = path.slice(c.get('base').length);
  const area = areaOf(method, rest);
  if (area === undefined) return next();
  const started = performance.now();
  const clock = sandbox.clock.now();
  // Only the admin API moves the clock (an advance, a state imported).
  const ahead = area === 'admin' ? sandbox.clock.aheadOfWall() : 0;
  await next();
  const duration = performance.now() - started;

  const jsonBody = c.get(JSON_BODY);
  const textBody = c.get(TEXT_BODY);
  // The request as Node read it (names and values in turn, the target as sent), else the Request (app.request()).
  const incoming = (c.env as Partial<HttpBindings> | undefined)?.incoming;
  const res = c.res;
  const lost = c.get(ANSWER_LOST as never) === true;
  const scenario = c.get('scenario');
  const answered = scenario === undefined && !lost ? c.get('answered') : undefined;
  if (answered !== undefined && incoming !== undefined && res.status < 300 && (method === 'GET' || method === 'POST')) {
    // The busiest entry, an accepted create or read over a socket, is packed as bytes (src/sessions/packed-requests.ts).
    recorder.recordAccepted(
      {
        wall: performance.timeOrigin + started,
        clock,
        duration,
        method,
        status: res.status,
        view: viewOf(method, rest),
        url: incoming.url ?? '',
        headers: incoming.rawHeaders.join('\n'),
        body: jsonBody !== undefined ? await c.req.text() : undefined,
        trade: answered,
      },
      sandbox.publicUrl,
    );
    return;
  }
  // Only a body a route has read (Hono keeps its text): reading one here could wait on a body no route wanted.
  const sent = jsonBody !== undefined ? c.req.text() : textBody !== undefined ? textBody : area === 'page' ? formText(c) : undefined;
  let answer: string | (() => string) = '';
  if (!lost) {
    // An accepted create or read is written again from the trade its route answered with when
    // exported; a scenario's answer carries X-Sandbox-Scenario besides, so it is read as any other.
    const rebuilt = answered === undefined || res.status >= 300 ? undefined : acceptedAnswer(answered, viewOf(method, rest), sandbox.publicUrl);
    if (rebuilt !== undefined) answer = rebuilt;
    else if (method !== 'HEAD' && !NULL_BODY.has(res.status)) {
      answer = await res.text();
      // The same answer, its body read here: a Response of the same text, status and headers.
      c.res = undefined;
      c.res = new Response(answer, { status: res.status, headers: res.headers });
    }
  }
  recorder.record({
    type: 'request',
    seq: 0,
    wall: performance.timeOrigin + started,
    clock,
    method,
    // Under app.request() the Request itself is kept: its URL and headers are read at export.
    url: incoming?.url ?? c.req.raw,
    requestHeaders: incoming?.rawHeaders.join('\n') ?? c.req.raw,
    requestBody: sent,
    status: lost ? 0 : res.status,
    responseHeaders: lost ? undefined : typeof answer === 'function' ? ACCEPTED_HEADERS : res.headers,
    responseBody: answer,
    duration,
    // A refusal a scenario forced names it in its answer only.
    scenario: scenario ?? (lost || res.status < 400 ? undefined : (res.headers.get('X-Sandbox-Scenario') ?? undefined)),
  });
  if (area !== 'admin') return;
  const moved = sandbox.clock.mode === 'manual' ? sandbox.clock.now() !== clock : Math.abs(sandbox.clock.aheadOfWall() - ahead) > 1;
  if (moved) recorder.record({ type: 'clock', seq: 0, wall: Date.now(), from: new Date(clock).toISOString(), to: sandbox.clock.nowIso(), cause: `${method} ${path}` });
};
