import { compareBodies } from './compare-bodies.js';
import type { Difference, ProbeAnswer } from './drift-types.js';
import { meaningfulHeaderNames } from './meaningful-headers.js';

/**
 * The differences between the sandbox's and the target's answers to one probe: the status, the
 * media type, the headers worth comparing (by presence), and, when both answers are successes or
 * both errors, their bodies (compareBodies()). A success and an error have nothing in common to
 * compare beyond the status.
 *
 * @example
 * compareAnswers('get.unknown_trade', sandboxAnswer, targetAnswer, 'error.code')
 */
export function compareAnswers(probe: string, sandbox: ProbeAnswer, target: ProbeAnswer, codePath: string | undefined): Difference[] {
  const differences: Difference[] = [];
  if (sandbox.status !== target.status) differences.push({ probe, aspect: 'status', path: '', sandbox: sandbox.status, target: target.status });
  if (sandbox.contentType !== target.contentType) {
    differences.push({ probe, aspect: 'content_type', path: '', sandbox: sandbox.contentType || 'none', target: target.contentType || 'none' });
  }
  differences.push(...compareHeaderNames(probe, meaningfulHeaderNames(sandbox.headers), meaningfulHeaderNames(target.headers)));
  const kind = (status: number) => (status >= 200 && status < 300 ? 'success' : status >= 400 ? 'error' : 'other');
  const both = kind(sandbox.status);
  if (both !== 'other' && both === kind(target.status)) {
    differences.push(...compareBodies(probe, sandbox.json, target.json, { kind: both, ...(codePath !== undefined ? { codePath } : {}) }));
  }
  return differences;
}

/** A header one side sends and the other does not: present or missing. */
export function compareHeaderNames(probe: string, sandbox: readonly string[], target: readonly string[]): Difference[] {
  const differences: Difference[] = [];
  for (const name of sandbox) if (!target.includes(name)) differences.push({ probe, aspect: 'header', path: name, sandbox: 'present', target: 'missing' });
  for (const name of target) if (!sandbox.includes(name)) differences.push({ probe, aspect: 'header', path: name, sandbox: 'missing', target: 'present' });
  return differences;
}
