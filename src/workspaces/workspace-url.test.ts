import { describe, expect, it } from 'vitest';
import { workspaceBaseUrl, workspaceUrl } from './workspace-url.js';

describe('the base URL of a workspace', () => {
  it('is the unprefixed URL for the default workspace, else <url>/w/<name>', () => {
    expect(workspaceBaseUrl('http://127.0.0.1:4242', 'default')).toBe('http://127.0.0.1:4242');
    expect(workspaceBaseUrl('http://127.0.0.1:4242/', 'worker-3')).toBe('http://127.0.0.1:4242/w/worker-3');
  });

  it('--workspace: the same rule, left out meaning the default, and a name that is not allowed refused with the flag', () => {
    expect(workspaceUrl('http://127.0.0.1:4242', undefined)).toBe('http://127.0.0.1:4242');
    expect(workspaceUrl('http://127.0.0.1:4242', 'default')).toBe('http://127.0.0.1:4242');
    expect(workspaceUrl('http://127.0.0.1:4242', 'qa.1')).toBe('http://127.0.0.1:4242/w/qa.1');
    expect(() => workspaceUrl('http://127.0.0.1:4242', '..')).toThrow(/^--workspace: The workspace name "\.\." is not allowed/);
  });
});
