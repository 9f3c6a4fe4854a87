import type { ProbeAnswer, ProbeRequest } from './drift-types.js';

/** How much of an answer is read: more is cut off (no answer of the three endpoints comes near). */
const MAX_ANSWER_BYTES = 1024 * 1024;

/** An answer that could not be had: the target unreachable, too slow, or cut off. */
export class SendError extends Error {
  override name = 'SendError';
}

/**
 * Sends one probe to a base URL (`https://test.provider.example`, or `http://127.0.0.1:4242/w/qa`)
 * and reads its answer: never following a redirect (a 3xx is the answer), reading at most 1 MiB,
 * giving up after `timeoutMs`. Rejects with a SendError when no answer came.
 *
 * @example
 * const answer = await sendProbe('http://127.0.0.1:4242', { method: 'GET', path: '/api/v1/trades/m/u', endpoint: 'get', headers: { 'X-Token': token } }, 10_000);
 */
export async function sendProbe(base: string, request: ProbeRequest, timeoutMs: number): Promise<ProbeAnswer> {
  const url = `${base.replace(/\/+$/, '')}${request.path}`;
  let response: Response;
  try {
    response = await fetch(url, {
      method: request.method,
      headers: { Accept: 'application/json', ...request.headers },
      ...(request.body !== undefined ? { body: request.body } : {}),
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const why = (error as Error).name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : (cause?.code ?? cause?.message ?? (error as Error).message);
    throw new SendError(`${request.method} ${url} got no answer (${why}).`);
  }
  const text = await readText(response, url);
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name.toLowerCase()] = value;
  });
  const contentType = (headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  let json: unknown;
  let isJson = false;
  try {
    json = JSON.parse(text);
    isJson = true;
  } catch {
    json = undefined;
  }
  return { status: response.status, contentType, headers, text, json, isJson };
}

async function readText(response: Response, url: string): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
      if (size >= MAX_ANSWER_BYTES) {
        await reader.cancel();
        break;
      }
    }
  } catch (error) {
    throw new SendError(`The answer of ${url} was cut off (${(error as Error).message}).`);
  }
  return Buffer.concat(chunks).subarray(0, MAX_ANSWER_BYTES).toString('utf8');
}
