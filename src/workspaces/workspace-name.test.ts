import { describe, expect, it } from 'vitest';
import { workspaceNameProblem } from './workspace-name.js';

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
