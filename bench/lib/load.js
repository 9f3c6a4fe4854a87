// Load runs with autocannon's programmatic API: 50 connections, loopback, unique orders.
import autocannon from 'autocannon';
import { cpuMs } from './processes.js';

export const MERCHANT = '6f1c2a9e-3b7d-4c52-9a1e-2d4b8f0c7e51';
export const TOKEN = 'sandbox-token-demo';
export const CONNECTIONS = 50;

let runs = 0;

/** POST /api/v1/trades/deposit/create with a new order each time. */
export function createRequests(extra = {}) {
  const prefix = `bench-${process.pid}-${++runs}-`;
  let n = 0;
  return [
    {
      method: 'POST',
      path: '/api/v1/trades/deposit/create',
      headers: { 'content-type': 'application/json', 'x-auth': TOKEN },
      setupRequest: (request) => ({
        ...request,
        body: JSON.stringify({ merchant: MERCHANT, order: `${prefix}${++n}`, amount_cents: 31250, amount_currency: 'RUB', type: 'any_bank', ...extra }),
      }),
    },
  ];
}

/** GET /api/v1/trades/:merchant/:id over the given ids, in turn. */
export function getRequests(ids) {
  let n = 0;
  return [
    {
      method: 'GET',
      headers: { 'x-token': TOKEN },
      setupRequest: (request) => ({ ...request, path: `/api/v1/trades/${MERCHANT}/${ids[n++ % ids.length]}` }),
    },
  ];
}

/**
 * Runs autocannon against the server `target` ({ url, child }) with `connections` (default 50)
 * and returns rps, p50, p99 (ms), failures, and the server's CPU time per request in
 * microseconds (Linux; NaN elsewhere).
 */
export async function load(target, requests, seconds, connections = CONNECTIONS) {
  const before = cpuMs(target.child.pid);
  const result = await autocannon({ url: target.url, connections, duration: seconds, requests });
  const after = cpuMs(target.child.pid);
  return {
    rps: result.requests.average,
    total: result.requests.total,
    p50: result.latency.p50,
    p99: result.latency.p99,
    cpuUs: ((after - before) * 1000) / result.requests.total,
    failures: result.non2xx + result.errors + result.timeouts,
    detail: { non2xx: result.non2xx, errors: result.errors, timeouts: result.timeouts, statusCodes: result.statusCodeStats },
  };
}

/** A short run to warm up the JIT of both sides, result discarded. */
export async function warm(target, requests, seconds, connections = CONNECTIONS) {
  if (seconds > 0) await autocannon({ url: target.url, connections, duration: seconds, requests });
}
