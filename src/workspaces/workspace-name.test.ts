import { describe, expect, it } from 'vitest';
import { workspaceNameProblem } from './workspace-name.js';
import { rawPath, splitWorkspacePath } from './workspace-path.js';

describe('workspaceNameProblem', () => {
  it('accepts 1 to 64 of A-Z a-z 0-9 _ . -', () => {
    for (const name of ['a', 'gw0', 'worker-3', 'CI_job.42', 'x'.repeat(64), '...']) expect(workspaceNameProblem(name), name).toBeUndefined();
  });

  it('refuses anything else, saying what is allowed', () => {
    for (const name of ['', '.', '..', 'x'.repeat(65), 'a b', 'a%2Fb', 'ä', 'a/b', 'a:b']) {
      const problem = workspaceNameProblem(name);
      expect(problem, name).toContain('1 to 64 characters, each a letter A-Z or a-z, a digit 0-9, "_", "." or "-"');
    }
    expect(workspaceNameProblem('x'.repeat(65))).toContain('is 65 characters long');
    expect(workspaceNameProblem('')).toContain('is empty');
  });
});

describe('workspace paths', () => {
  it('reads the path as sent, escapes kept, without query or fragment', () => {
    expect(rawPath('http://127.0.0.1:4242/w/a%2Fb/x?y=1#z')).toBe('/w/a%2Fb/x');
    expect(rawPath('http://127.0.0.1:4242')).toBe('/');
  });

  it('splits /w/<name>/<rest>', () => {
    expect(splitWorkspacePath('/w/a/api/v1')).toEqual({ name: 'a', rest: '/api/v1' });
    expect(splitWorkspacePath('/w/a')).toEqual({ name: 'a', rest: '/' });
    expect(splitWorkspacePath('/w/')).toEqual({ name: '', rest: '/' });
    expect(splitWorkspacePath('/wx/a')).toBeUndefined();
    expect(splitWorkspacePath('/api/v1')).toBeUndefined();
  });
});
