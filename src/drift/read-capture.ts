import { z } from 'zod';

/** One captured HTTP request: a provider request, or a callback. */
export interface CapturedRequest {
  method: string;
  /** As captured: a path (`/api/v1/...`) or an absolute URL. */
  url: string;
  /** Names lowercased; a repeated header keeps its first value. */
  headers: Record<string, string>;
  /** The raw body, exactly as captured. */
  body: string;
  /** How the file was read, for the output: `raw HTTP` or `HAR entry 2 of 3`. */
  source: string;
}

// The part of HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/) a signature check reads:
// a request's method, url, headers and postData.text. Timings, cookies, sizes and the response
// are not needed, and captures trimmed by hand often lack them.
const harHeader = z.object({ name: z.string(), value: z.string() });
const harRequest = z.object({
  method: z.string().min(1),
  url: z.string().min(1),
  headers: z.array(harHeader).default([]),
  postData: z.object({ text: z.string().optional(), mimeType: z.string().optional() }).optional(),
});
const harEntry = z.object({ request: harRequest });
const harLog = z.object({ log: z.object({ entries: z.array(harEntry).min(1, 'holds no entry') }) });
type HarRequest = z.infer<typeof harRequest>;

/** A capture that cannot be read: says what was expected. */
export class CaptureError extends Error {
  override name = 'CaptureError';
}

/**
 * Reads one captured request from a file's text: raw HTTP (`POST /path HTTP/1.1`, headers, a
 * blank line, the body; a Content-Length cuts the body), or JSON holding a HAR (`log.entries`),
 * one HAR entry (`{"request": ...}`) or a HAR request. A HAR with several entries takes the one
 * `entry` names (1-based), or the only one `pick` accepts.
 *
 * @example
 * readCapture('POST /cb HTTP/1.1\r\nX-Signature: ab\r\n\r\n{"id":"t"}', 'cb.http').headers['x-signature'] // 'ab'
 */
export function readCapture(text: string, file: string, options: { entry?: number; pick?: (request: CapturedRequest) => boolean } = {}): CapturedRequest {
  const start = text.trimStart();
  if (start.startsWith('{')) return readHar(start, file, options);
  return readRawHttp(text, file);
}

function readRawHttp(text: string, file: string): CapturedRequest {
  const split = /\r?\n\r?\n/.exec(text);
  const head = (split ? text.slice(0, split.index) : text).replace(/^\s+/, '');
  const rest = split ? text.slice(split.index + split[0].length) : '';
  const [requestLine = '', ...headerLines] = head.split(/\r?\n/);
  const line = /^([A-Z]+)\s+(\S+)(?:\s+HTTP\/\d(?:\.\d)?)?$/.exec(requestLine.trim());
  if (!line) {
    throw new CaptureError(
      `${file}: the first line ${JSON.stringify(requestLine.slice(0, 80))} is not a request line such as "POST /api/v1/trades/deposit/create HTTP/1.1". Save the request as raw HTTP (request line, headers, a blank line, the body) or as a HAR file.`,
    );
  }
  const headers: Record<string, string> = {};
  for (const header of headerLines) {
    const colon = header.indexOf(':');
    if (colon <= 0) continue;
    const name = header.slice(0, colon).trim().toLowerCase();
    if (headers[name] === undefined) headers[name] = header.slice(colon + 1).trim();
  }
  let body = rest;
  const length = Number(headers['content-length']);
  if (headers['content-length'] !== undefined && Number.isInteger(length) && length >= 0) {
    const bytes = Buffer.from(rest, 'utf8');
    if (bytes.length > length) body = bytes.subarray(0, length).toString('utf8');
  }
  return { method: line[1] ?? '', url: line[2] ?? '', headers, body, source: 'raw HTTP' };
}

function fromHar(request: HarRequest, source: string): CapturedRequest {
  const headers: Record<string, string> = {};
  for (const header of request.headers) {
    const name = header.name.toLowerCase();
    if (headers[name] === undefined) headers[name] = header.value;
  }
  return { method: request.method.toUpperCase(), url: request.url, headers, body: request.postData?.text ?? '', source };
}

function readHar(text: string, file: string, options: { entry?: number; pick?: (request: CapturedRequest) => boolean }): CapturedRequest {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new CaptureError(`${file}: starts like JSON but is not JSON (${(error as Error).message}). A HAR file, a HAR entry or raw HTTP is expected.`);
  }
  const log = harLog.safeParse(data);
  if (log.success) {
    const entries = log.data.log.entries.map((entry, index) => fromHar(entry.request, `HAR entry ${index + 1} of ${log.data.log.entries.length}`));
    if (options.entry !== undefined) {
      const chosen = entries[options.entry - 1];
      if (!chosen) throw new CaptureError(`${file}: --entry ${options.entry} is not an entry of this HAR, which holds ${entries.length}.`);
      return chosen;
    }
    if (entries.length === 1 && entries[0]) return entries[0];
    const fitting = options.pick ? entries.filter(options.pick) : [];
    if (fitting.length === 1 && fitting[0]) return fitting[0];
    throw new CaptureError(
      `${file}: the HAR holds ${entries.length} entries${options.pick ? `, ${fitting.length} of them fitting` : ''}; choose one with --entry <n>:\n${entries.map((entry, index) => `  ${index + 1}: ${entry.method} ${entry.url}`).join('\n')}`,
    );
  }
  const entry = harEntry.safeParse(data);
  if (entry.success) return fromHar(entry.data.request, 'HAR entry');
  const request = harRequest.safeParse(data);
  if (request.success) return fromHar(request.data, 'HAR request');
  const issue = log.error.issues[0];
  throw new CaptureError(
    `${file}: is JSON but not a HAR file ({"log": {"entries": [...]}}), a HAR entry ({"request": {...}}) or a HAR request ({"method", "url", "headers": [{"name", "value"}], "postData": {"text"}})${issue ? `; as a HAR file, ${issue.path.join('.') || 'the document'}: ${issue.message}` : ''}.`,
  );
}
