import http from 'node:http';
import https from 'node:https';
import { z } from 'zod';
import { formatDuration } from '../clock/duration.js';
import { TRADE_STATES, tradeStateSchema, type StateName } from '../trades/trade.js';

/** What the merchant's balance probe answers for one order (contract §13). */
export const probeAnswerSchema = z.object({
  /** The merchant's state for the order; null (or a 404 answer) when it never heard of it. */
  state: tradeStateSchema.nullable(),
  /** Kopecks credited for the order so far. */
  credited_cents: z.number().int().min(0),
});
/** A probe's answer: its state is one of the states of the provider profile in force (a profile's intermediate states too). */
export interface ProbeAnswer {
  state: StateName | null;
  credited_cents: number;
}

const answerSchemas = new Map<string, z.ZodType<ProbeAnswer>>();

/** The answer's schema when the states are `states` (the sandbox's own and a profile's intermediate ones). */
function answerSchemaOf(states: readonly string[]): z.ZodType<ProbeAnswer> {
  if (states.length === TRADE_STATES.length && states.every((state, i) => state === TRADE_STATES[i])) return probeAnswerSchema;
  const key = states.join(',');
  let schema = answerSchemas.get(key);
  if (!schema) {
    // A handful of profiles in a process; bounded all the same.
    if (answerSchemas.size >= 64) answerSchemas.clear();
    schema = z.object({ state: z.enum(states as [string, ...string[]]).nullable(), credited_cents: probeAnswerSchema.shape.credited_cents });
    answerSchemas.set(key, schema);
  }
  return schema;
}

/**
 * The probe could not be read, or answered something else than the protocol says. `message`
 * is the whole story for a person (what was asked, what came, what it must answer); `problem`
 * is the short phrase a report line quotes ("did not answer within 10000 ms", "answered 500").
 */
export class ProbeError extends Error {
  override name = 'ProbeError';
  readonly problem: string;

  constructor(message: string, problem: string) {
    super(message);
    this.problem = problem;
  }
}

const EXPECTED = 'It must answer 200 with {"state": "confirmed", "credited_cents": 31250} (state null and credited_cents 0, or a 404, for an order it never saw).';

/**
 * Reads the merchant's balance probe: `GET <probe>?order=<order>`, the whole answer within
 * `timeoutMs`. Throws a ProbeError that says what the probe answered and what it must answer
 * instead. The one reader of the probe: `check-callback --probe` and the integration report
 * (`serve --probe`) both read it here. `states` are the states the probe may answer: the
 * sandbox's own, and a provider profile's intermediate ones (TransitionTable.states).
 */
export async function readProbe(probe: string, order: string, timeoutMs = 10_000, states: readonly string[] = TRADE_STATES): Promise<ProbeAnswer> {
  const url = new URL(probe);
  url.searchParams.set('order', order);
  const where = `The balance probe GET ${url.href}`;
  let response: { status: number; text: string };
  try {
    response = await get(url, timeoutMs);
  } catch (error) {
    const timedOut = (error as NodeJS.ErrnoException).code === 'ETIMEDOUT';
    const reason = timedOut ? (error as Error).message : ((error as NodeJS.ErrnoException).code ?? (error as Error).message);
    const cause = timedOut ? `${reason}; --timeout bounds each probe read` : reason;
    throw new ProbeError(
      `${where} could not be read (${cause}). Start the probe endpoint of your test environment, or fix --probe. ${EXPECTED}`,
      timedOut ? `did not answer within ${formatDuration(timeoutMs)}` : `could not be read (${reason})`,
    );
  }
  const { text } = response;
  if (response.status === 404) return { state: null, credited_cents: 0 };
  if (response.status !== 200) throw new ProbeError(`${where} answered ${response.status}${text ? ` (${JSON.stringify(text.slice(0, 80))})` : ''}. ${EXPECTED}`, `answered ${response.status}`);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ProbeError(`${where} answered 200 with something that is not JSON (${JSON.stringify(text.slice(0, 80))}). ${EXPECTED}`, 'answered 200 with something that is not JSON');
  }
  const parsed = answerSchemaOf(states).safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.join('.') || 'the body';
    throw new ProbeError(`${where} answered ${JSON.stringify(text.slice(0, 120))}: ${field} is not right (${issue?.message ?? 'invalid'}). ${EXPECTED}`, `answered ${field} that is not right`);
  }
  return parsed.data;
}

const agents = { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true }) };

/**
 * GET over a kept-alive connection (the fuzzer reads the probe after every schedule). The whole
 * read, from connecting to the last byte of the answer, must end within `timeoutMs`: a probe
 * that trickles its answer a byte at a time is cut off like one that never answers.
 */
function get(url: URL, timeoutMs: number): Promise<{ status: number; text: string }> {
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    let done = false;
    const settle = (outcome: () => void) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      outcome();
    };
    const req = client.get(url, { agent: url.protocol === 'https:' ? agents.https : agents.http, headers: { Accept: 'application/json' }, timeout: timeoutMs }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size <= 64 * 1024) chunks.push(chunk);
      });
      res.on('end', () => settle(() => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') })));
      res.on('error', (error) => settle(() => reject(error)));
    });
    const timer = setTimeout(() => {
      const error = Object.assign(new Error(`the whole answer did not arrive within ${timeoutMs} ms`), { code: 'ETIMEDOUT' });
      settle(() => reject(error));
      req.destroy(error);
    }, timeoutMs);
    req.on('timeout', () => req.destroy(Object.assign(new Error(`no answer within ${timeoutMs} ms`), { code: 'ETIMEDOUT' })));
    req.on('error', (error) => settle(() => reject(error)));
  });
}
