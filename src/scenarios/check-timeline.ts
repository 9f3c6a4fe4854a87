import { formatDuration } from '../clock/duration.js';
import { DEFAULT_TABLE, isFinal, WAITING_STATES, type TransitionTable } from '../lifecycle/transitions.js';
import type { StateName } from '../trades/trade.js';

export interface TimelineProblem {
  /** Path inside the timeline list, e.g. [1, 'state']. */
  path: (string | number)[];
  message: string;
}

/**
 * Checks that a timeline can run as written: steps in time order, and each step a move the
 * transition table allows after the steps before it, whichever state the trade starts in
 * (created or ecom). `table` is the provider profile's (src/lifecycle/transitions.ts); a step may
 * skip intermediate states, which the trade then passes through.
 */
export function checkTimeline(steps: readonly { after: number; state: StateName }[], table: TransitionTable = DEFAULT_TABLE): TimelineProblem[] {
  const problems: TimelineProblem[] = [];
  steps.forEach((step, index) => {
    const previous = steps[index - 1];
    if (previous && step.after < previous.after) {
      problems.push({
        path: [index, 'after'],
        message: `is ${formatDuration(step.after)}, earlier than the step before it (${formatDuration(previous.after)}); list the steps in the order they happen`,
      });
    }
  });
  if (problems.length > 0) return problems;

  for (const start of WAITING_STATES) {
    let state: StateName = start;
    for (const [index, step] of steps.entries()) {
      if (table.route(state, step.state) !== undefined) {
        state = step.state;
        continue;
      }
      const message =
        index === 0
          ? `${step.state} can never apply: a new trade is ${WAITING_STATES.join(' or ')} and can move only to ${table.allowed(start).join(', ')}`
          : isFinal(state)
            ? `${step.state} can never apply: timeline[${index - 1}] already made the trade ${state}, a final state. Remove this step or the one before`
            : `${step.state} can never apply after ${state}; a ${state} trade can move only to ${table.allowed(state).join(', ')}`;
      return [{ path: [index, 'state'], message }];
    }
  }
  return [];
}

/**
 * Whether a scenario's timeline can run under a provider profile's table: every state it names is
 * one the profile knows, and the steps are moves its table allows. The first problem, its path
 * inside the timeline, or undefined. A scenario is checked against the profile of where it is
 * loaded; this is what a create checks when the profile in force is another (a workspace's own,
 * or one changed since).
 */
export function timelineProblem(steps: readonly { after: number; state: StateName }[], table: TransitionTable): TimelineProblem | undefined {
  const unknown = steps.findIndex((step) => !table.knows(step.state));
  if (unknown >= 0) {
    return { path: [unknown, 'state'], message: `must be one of ${table.states.join(', ')}; got ${JSON.stringify(steps[unknown]?.state)}` };
  }
  return checkTimeline(steps, table)[0];
}
