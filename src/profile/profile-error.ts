import { formatProblem, type FileProblem } from '../config/yaml-issues.js';

/** A profile that cannot be used; the message lists every problem as `file:line:column: key: message`. */
export class ProfileError extends Error {
  override name = 'ProfileError';
  readonly problems: FileProblem[];

  constructor(problems: FileProblem[]) {
    super(
      `Invalid provider profile (${problems.length} ${problems.length === 1 ? 'problem' : 'problems'}):\n  ${problems.map(formatProblem).join('\n  ')}\nThe format is described in docs/provider-profile.md and profiles/profile.schema.json.`,
    );
    this.problems = problems;
  }
}
