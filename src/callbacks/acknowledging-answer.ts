import type { Acknowledgement } from '../profile/profile-schema.js';

/**
 * The answer that acknowledges a callback under the rule, for advice: `2xx` under `2xx` (the
 * sandbox's words), else the body it must hold.
 */
export function acknowledgingAnswer(rule: Acknowledgement): string {
  switch (rule) {
    case '2xx':
      return '2xx';
    case 'ok-text':
      return '2xx with the body OK';
    case 'code-zero':
      return '2xx with the JSON {"code":0}';
  }
}
