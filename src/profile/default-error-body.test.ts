import { expect, it } from 'vitest';
import { DEFAULT_ERROR_BODY } from './default-error-body.js';
import { loadProfile } from './load-profile.js';

it("is the sandbox profile's errors.body, so that profile answers in the envelope itself", () => {
  expect(loadProfile('sandbox').errors.body).toBe(DEFAULT_ERROR_BODY);
});
