/** How a request in a workspace was answered: what decides whether a workspace it created is kept. */
export interface RequestOutcome {
  /** The HTTP status of the answer. */
  readonly status: number;
  /** Whether a scenario forced the answer (it carries X-Sandbox-Scenario). */
  readonly scenario: boolean;
}

/**
 * Whether the answer to a request that created a workspace keeps that workspace. A request the
 * sandbox accepted keeps it (any status below 400), and so does a 422: a merchant's test sends
 * invalid fields on purpose to see the error, and the integration report of the workspace
 * counts that 422 (`GET /w/<name>/_sandbox/report` must still show it). So does an answer a
 * scenario forced (the merchant asked for it; the report's coverage counts it). Every other
 * refusal (401 wrong X-Auth or signature, 403, 404 unknown trade or route, 405, 413, 429, 5xx)
 * drops it: junk sent to made-up names uses up no place under --max-workspaces. The registry
 * also keeps a workspace that saved something, whatever its answer.
 */
export function keepsNewWorkspace(outcome: RequestOutcome): boolean {
  return outcome.status < 400 || outcome.status === 422 || outcome.scenario;
}
