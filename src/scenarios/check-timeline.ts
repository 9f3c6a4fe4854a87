import { formatDuration } from '../clock/duration.js';
import { allowedTransitions, canTransition, isFinal } from '../lifecycle/transitions.js';
import type { TradeState } from '../trades/trade.js';

export interface TimelineProblem {
  /** Path inside the timeline list, e.g. [1, 'state']. */
  path: (string | number)[];
  message: string;
}

/** States a trade starts in: `created` (P2P) or `ecom`. The header can pick a scenario for either. */
const START_STATES: readonly TradeState[] = ['created', 'ecom'];

/**
 * Checks that a timeline can run as written: steps in time order, and each step a move the
 * transition table allows after the steps before it, whichever state the trade starts in.
 */
export function checkTimeline(steps: readonly { after: number; state: TradeState }[]): TimelineProblem[] {
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

  for (const start of START_STATES) {
    let state = start;
    for (const [index, step] of steps.entries()) {
      if (canTransition(state, step.state)) {
        state = step.state;
        continue;
      }
      const message =
        index === 0
          ? `${step.state} can never apply: a new trade is ${START_STATES.join(' or ')} and can move only to ${allowedTransitions(start).join(', ')}`
          : isFinal(state)
            ? `${step.state} can never apply: timeline[${index - 1}] already made the trade ${state}, a final state. Remove this step or the one before`
            : `${step.state} can never apply after ${state}; a ${state} trade can move only to ${allowedTransitions(state).join(', ')}`;
      return [{ path: [index, 'state'], message }];
    }
  }
  return [];
}
