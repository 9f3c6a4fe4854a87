// The bundled merchants (fixtures/merchants.json) as the tests use them; a module of its own, with
// no imports, so that a test which needs only these (the container test) does not load the app.

/** The bundled demo merchant (fixtures/merchants.json). */
export const DEMO = {
  id: '6f1c2a9e-3b7d-4c52-9a1e-2d4b8f0c7e51',
  token: 'sandbox-token-demo',
  secret: 'sandbox-secret-demo',
  rate: 92.5,
} as const;

/** The second bundled merchant, for cross-merchant checks. */
export const SECOND = {
  id: '0b8e4c3d-7a21-4f6e-8d59-3c1a2b9e6f70',
  token: 'sandbox-token-second',
  secret: 'sandbox-secret-second',
  rate: 91.75,
} as const;
