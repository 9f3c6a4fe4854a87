/**
 * The header the dashboard's own forms send with their provider API requests (New trade):
 * QA's clicks, which the integration report does not count as the merchant's.
 */
export const CLIENT_HEADER = 'X-Sandbox-Client';
export const DASHBOARD_CLIENT = 'dashboard';

/**
 * The header a merchant's test sends with a request it makes wrong on purpose (a wrong token, to
 * test its own 401 handling): the refusal still counts as met for the coverage, but not as a
 * mistake. Any value; a sandbox-only helper the provider ignores.
 */
export const DELIBERATE_HEADER = 'X-Sandbox-Deliberate';
