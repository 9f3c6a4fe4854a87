/**
 * The header the dashboard's own forms send with their provider API requests (New trade):
 * QA's clicks, which the integration report does not count as the merchant's.
 */
export const CLIENT_HEADER = 'X-Sandbox-Client';
export const DASHBOARD_CLIENT = 'dashboard';
