import { describe, expect, it } from 'vitest';
import { Refusal, refuse } from '../refusals/refusal.js';
import { orRefuse, refusalError } from './refusal-error.js';

describe('refusalError', () => {
  it('gives each kind its status and keeps code, message and details word for word', () => {
    const detail = { field: 'state', message: 'must be one of created' };
    expect(refusalError(refuse.notFound('No trade with id "x".')).toJSON()).toEqual({ error: { status: 404, code: 'not_found', message: 'No trade with id "x".', details: [] } });
    expect(refusalError(refuse.invalid('validation_failed', 'Unknown state.', [detail])).toJSON()).toEqual({
      error: { status: 422, code: 'validation_failed', message: 'Unknown state.', details: [detail] },
    });
    expect(refusalError(refuse.conflict('transition_not_allowed', 'Final.', [])).toJSON()).toEqual({
      error: { status: 409, code: 'transition_not_allowed', message: 'Final.', details: [], allowed: [] },
    });
    const signature = { header: 'X-Auth', algorithm: 'HMAC-SHA256, hex', string_to_sign: 'a::b', received: 'x' };
    expect(refusalError(refuse.unauthorized('signature_mismatch', 'Bad.', { field: 'X-Auth', message: 'not a valid signature' }, signature)).toJSON()).toEqual({
      error: { status: 401, code: 'signature_mismatch', message: 'Bad.', details: [{ field: 'X-Auth', message: 'not a valid signature' }], signature },
    });
  });

  it('answers a forced refusal with its scenario status and names the scenario in a header', () => {
    const error = refusalError(new Refusal('forced', 'scenario_rejected', 'No.', { status: 503, scenario: 'down' }));
    expect(error.status).toBe(503);
    expect(error.headers).toEqual({ 'X-Sandbox-Scenario': 'down' });
  });
});

describe('orRefuse', () => {
  it('passes a value through and throws a refusal as its envelope', () => {
    expect(orRefuse(42)).toBe(42);
    expect(() => orRefuse(refuse.notFound('gone'))).toThrow('gone');
  });
});
