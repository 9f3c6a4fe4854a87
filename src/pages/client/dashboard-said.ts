import type { CheckCaseResult } from '../../check-callback/check-report.js';
import { DASHBOARD_SAID_RU } from '../../i18n/dashboard-said-ru.js';
import type { Lang } from '../../i18n/lang.js';
import { translator } from '../../i18n/translator.js';

/** The error envelope of a provider answer that is not 2xx, as far as the New trade form reads it. */
export interface ProviderError {
  code?: string | undefined;
  message?: string | undefined;
  details?: Array<{ field?: string | undefined }> | undefined;
}

const is2xx = (status: number | null): status is number => status !== null && status >= 200 && status < 300;

/**
 * What the dashboard shows of what the server wrote in English, in the page's language: English
 * shows the server's words as they are; Russian says them again from the answer's fields
 * (DASHBOARD_SAID_RU), since the check's advice and the provider's refusals carry no codes of
 * their own beside the case, verdict, status and error code.
 */
export function dashboardSaid(lang: Lang) {
  const t = translator('ru', DASHBOARD_SAID_RU);
  const answer = (status: number | null) => (status === null ? t('advice.noAnswer') : t('advice.answer', { status }));

  /** The advice of one receiver-check case, as judgeCase (src/check-callback/judge-case.ts) decides it. */
  function adviceRu(c: CheckCaseResult): string {
    const status = c.status ?? '';
    if (c.verdict === 'skipped') return t('advice.skipped');
    // `expected` is the profile's acknowledging answer ("2xx", "2xx with the body OK"), with ", and ignored" for the older state.
    const ack = c.expected.replace(/, and ignored$/, '');
    switch (c.case) {
      case 'valid':
        if (c.verdict === 'ok') return t('advice.valid.ok', { status });
        return t(c.status === 401 || c.status === 403 ? 'advice.valid.refused' : 'advice.valid.flagged', { answer: answer(c.status), ack });
      case 'duplicate':
        return c.verdict === 'ok' ? t('advice.duplicate.ok', { status }) : t('advice.duplicate.flagged', { answer: answer(c.status), ack });
      case 'older_state':
        return c.verdict === 'ok' ? t('advice.older_state.ok', { status }) : t('advice.older_state.flagged', { answer: answer(c.status), ack });
      case 'bad_signature':
      case 'no_signature': {
        const what = t(`advice.forged.what.${c.case}`);
        if (c.verdict === 'flagged') return t('advice.forged.accepted', { what, status });
        if (c.verdict === 'ok') return t('advice.forged.ok', { what, status });
        if (c.status === null) return t('advice.forged.noAnswer', { what });
        return t(is2xx(c.status) ? 'advice.forged.quiet2xx' : 'advice.forged.other', { what, status });
      }
    }
  }

  /** The provider's refusal of a create in Russian, from its code (and the fields of a validation_failed). */
  function refusalRu(error: ProviderError | undefined): string {
    const code = error?.code ?? '';
    if (code === 'validation_failed') {
      const fields = [...new Set((error?.details ?? []).map((detail) => detail.field ?? '').filter(Boolean))];
      if (fields.length > 0) return t('refusal.validation_failed', { count: fields.length, fields: fields.join(', ') });
    }
    const key = `refusal.${code}`;
    return code !== 'validation_failed' && key in DASHBOARD_SAID_RU ? t(key as keyof typeof DASHBOARD_SAID_RU) : t('refusal.other', { code: code || '—' });
  }

  return {
    /** A receiver-check case's title. */
    caseTitle: (c: CheckCaseResult): string => (lang === 'en' ? c.title : t(`case.${c.case}`)),
    /** A receiver-check case's advice. */
    advice: (c: CheckCaseResult): string => (lang === 'en' ? c.message : adviceRu(c)),
    /** The explanation of a refused create in the page's language; undefined in English, where the provider's text is the explanation. */
    refusal: (error: ProviderError | undefined): string | undefined => (lang === 'en' ? undefined : refusalRu(error)),
    /** What introduces the provider's own text, kept beside the explanation. */
    providerSaid: (): string => t('refusal.said'),
    /** Why the clock field's value is not a duration, or too far, in Russian. */
    clock: (problem: 'notDuration' | 'tooFar', value: string): string => t(problem === 'notDuration' ? 'clock.notDuration' : 'clock.tooFar', { value }),
  };
}

export type DashboardSaid = ReturnType<typeof dashboardSaid>;
