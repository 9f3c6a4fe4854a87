import { describe, expect, it } from 'vitest';
import { unsetBlankEnvironment } from './blank-environment.js';

describe('unsetBlankEnvironment', () => {
  it('removes blank PORT and DEPOSIT_SANDBOX_* values, and nothing else', () => {
    const env: NodeJS.ProcessEnv = { PORT: '', DEPOSIT_SANDBOX_SEED: '  ', DEPOSIT_SANDBOX_AUTH: 'token', DEPOSIT_SANDBOX_MAX_WORKSPACES: '', HOME: '', OTHER_PORT: '' };
    expect(unsetBlankEnvironment(env).sort()).toEqual(['DEPOSIT_SANDBOX_MAX_WORKSPACES', 'DEPOSIT_SANDBOX_SEED', 'PORT']);
    expect(env).toEqual({ DEPOSIT_SANDBOX_AUTH: 'token', HOME: '', OTHER_PORT: '' });
  });
});
