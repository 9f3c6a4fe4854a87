import { formatRussianDuration as durationRu } from '../../clock/russian-units.js';
import type { DashboardDom } from './dashboard-dom.js';
import type { ScenarioSummary } from './dashboard-types.js';

/**
 * What a scenario does, in the page's language: the server's line (GET /_sandbox/scenarios `does`)
 * in English, else built from the summary's fields the way the server builds its English line.
 */
export function scenarioEffect(dom: Pick<DashboardDom, 't' | 'word' | 'lang'>, scenario: ScenarioSummary): string {
  const { t, word, lang } = dom;
  if (lang === 'en') return scenario.does;
  const late = scenario.delay_ms !== null ? t('effect.late', { duration: durationRu(scenario.delay_ms) }) : '';
  if (scenario.respond) {
    const { status, code, retry_after_ms, first_only } = scenario.respond;
    const retry = retry_after_ms !== undefined ? t('effect.retryAfter', { seconds: Math.ceil(retry_after_ms / 1000) }) : '';
    return t(first_only ? 'effect.respondFirst' : 'effect.respond', { status, code: `${code}${retry}${late}` });
  }
  const parts: string[] = [];
  if (late) parts.push(t('effect.createLate', { late }));
  if (scenario.answer?.lost) parts.push(t('effect.lost'));
  if (scenario.answer?.delay_ms != null) parts.push(t('effect.answerDelay', { duration: durationRu(scenario.answer.delay_ms) }));
  for (const step of scenario.timeline) parts.push(t('effect.step', { state: word('state', step.state), duration: durationRu(step.after_ms) }));
  const callbacks = scenario.callbacks;
  if (callbacks) {
    if (callbacks.delay !== undefined) parts.push(t('effect.callbackDelay', { duration: durationRu(callbacks.delay) }));
    if ((callbacks.fail_first ?? 0) > 0) parts.push(t('effect.failFirst', { count: callbacks.fail_first ?? 0 }));
    if (callbacks.bad_signature) parts.push(t('effect.badSignature'));
    if (callbacks.duplicate) parts.push(t('effect.duplicate'));
    if (callbacks.overlap) parts.push(t('effect.overlap'));
  }
  if (scenario.timeline.length === 0) parts.push(t('effect.waits'));
  return parts.join('; ');
}
