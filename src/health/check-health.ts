import { AdminClient, AdminClientError } from '../admin-client/admin-client.js';

export type HealthResult = { ok: true; url: string } | { ok: false; url: string; reason: string };

/**
 * Asks the sandbox at `url` for GET /_sandbox/health. Healthy means a 200 whose body says
 * `"status":"ok"` within `timeoutMs`; anything else comes back with the reason.
 */
export async function checkHealth(url: string, timeoutMs: number): Promise<HealthResult> {
  let client: AdminClient;
  try {
    client = new AdminClient({ url, timeoutMs });
  } catch (error) {
    return { ok: false, url, reason: (error as Error).message };
  }
  try {
    const answer = await client.health();
    if (answer.status === 'ok') return { ok: true, url: client.url };
    return { ok: false, url: client.url, reason: `GET /_sandbox/health answered ${JSON.stringify(answer).slice(0, 200)}` };
  } catch (error) {
    const reason = error instanceof AdminClientError || error instanceof Error ? error.message : String(error);
    return { ok: false, url: client.url, reason };
  }
}
