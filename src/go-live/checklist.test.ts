import { describe, expect, it } from 'vitest';
import type { CheckCaseResult, CheckReport } from '../check-callback/check-report.js';
import { MistakeCounter } from '../report/mistake-counter.js';
import { buildChecklist, type ReceiverFindings } from './checklist.js';
import { formatChecklist } from './format-checklist.js';

const M = '6f1c2a9e-3b7d-4c52-9a1e-2d4b8f0c7e51';

/** The coverage of a merchant whose tests met `rows` the way `status` says. */
function coverage(marks: Array<[Parameters<MistakeCounter['cover']>[1], 'seen' | 'handled' | 'wrong', string?]>) {
  const counter = new MistakeCounter();
  for (const [row, status, detail] of marks) counter.cover(M, row, status, 't1', detail);
  return counter.report(() => 'Demo Shop').coverage[0];
}

const EVERY_ROW_DONE = coverage([
  ['create.accepted', 'seen'],
  ['create.refused_401', 'seen'],
  ['create.refused_422', 'seen'],
  ['create.duplicate_order', 'seen'],
  ['create.lost_answer', 'handled'],
  ['callback.confirmed', 'handled'],
  ['callback.canceled', 'handled'],
  ['callback.expired', 'handled'],
  ['callback.retry_after_failure', 'handled'],
  ['callback.duplicate', 'handled'],
  ['callback.overlapping', 'handled'],
  ['callback.bad_signature', 'handled'],
  ['payment.3ds_declined', 'seen'],
]);

const kase = (name: CheckCaseResult['case'], verdict: CheckCaseResult['verdict'], message = ''): CheckCaseResult => ({
  case: name,
  title: name.replace('_', ' '),
  expected: '2xx',
  sent: { trade: 't', state: 'confirmed', event_id: 'e', signature: 'valid' },
  status: 200,
  duration_ms: 1,
  response: '',
  verdict,
  message,
});

function findings(verdicts: Partial<Record<CheckCaseResult['case'], CheckCaseResult['verdict']>>, fuzz: ReceiverFindings['fuzz'], probe?: string): ReceiverFindings {
  const cases = (['valid', 'duplicate', 'older_state', 'bad_signature', 'no_signature'] as const).map((name) => kase(name, verdicts[name] ?? 'ok', `${name} message`));
  const check: CheckReport = { url: 'http://r', merchant: M, passed: true, flagged: 0, warnings: 0, cases };
  return { url: 'http://r', ...(probe !== undefined ? { probe } : {}), seed: 7, runs: 5, check, fuzz };
}

const passed = { merchant: M, seed: 7, runs: 5, probe: true, passed: true, schedules: 5 };
const status = (list: ReturnType<typeof buildChecklist>, id: string) => list.rows.find((row) => row.id === id)?.status;

describe('buildChecklist', () => {
  it('without any coverage every row is not met, each with the way to exercise it, deliberate ways first', () => {
    const list = buildChecklist({ merchant: M, coverage: undefined, sandboxProbe: false });
    expect(list.ready).toBe(false);
    expect(list.counts).toEqual({ met: 0, not_met: 15, wrong: 0 });
    const row401 = list.rows.find((row) => row.id === 'create.refused_401');
    expect(row401?.exercise).toMatch(/^an order starting with sbx-unauth-, or .*X-Sandbox-Deliberate/);
    expect(list.rows.find((row) => row.id === 'callback.bad_signature')?.exercise).toBe('an order starting with sbx-badsig-; or give go-live --receiver <url>');
    expect(list.rows.find((row) => row.id === 'credits.checked')?.exercise).toMatch(/--probe <url>/);
  });

  it('a callback row only seen is not met; seen-only rows seen are met; a wrong row names what was wrong', () => {
    const list = buildChecklist({
      merchant: M,
      coverage: coverage([
        ['create.accepted', 'seen'],
        ['callback.confirmed', 'seen'],
        ['callback.duplicate', 'wrong', 'credited twice'],
      ]),
      sandboxProbe: false,
    });
    expect(status(list, 'create.accepted')).toBe('met');
    expect(status(list, 'callback.confirmed')).toBe('not_met');
    const duplicate = list.rows.find((row) => row.id === 'callback.duplicate');
    expect(duplicate).toMatchObject({ status: 'wrong', evidence: [{ source: 'coverage', status: 'wrong', detail: 'wrong (trade t1): credited twice' }] });
    expect(duplicate?.exercise).toBeUndefined();
  });

  it('every coverage row done, the sandbox reading the probe and a receiver that passed everything: ready', () => {
    const list = buildChecklist({ merchant: M, name: 'Demo Shop', coverage: EVERY_ROW_DONE, sandboxProbe: true, receiver: findings({}, passed, 'http://p') });
    expect(list.counts).toEqual({ met: 15, not_met: 0, wrong: 0 });
    expect(list.ready).toBe(true);
    expect(formatChecklist(list, 'http://sbx')).toContain('15 met, 0 not met, 0 wrong: ready to go live');
  });

  it('the receiver check and the fuzzer meet the callback rows the tests did not, and the older-state row', () => {
    const list = buildChecklist({ merchant: M, coverage: undefined, sandboxProbe: false, receiver: findings({}, passed, 'http://p') });
    for (const id of ['callback.confirmed', 'callback.duplicate', 'callback.overlapping', 'callback.bad_signature', 'callback.older_state', 'callback.canceled', 'credits.checked']) {
      expect(status(list, id), id).toBe('met');
    }
    expect(status(list, 'callback.expired')).toBe('not_met');
  });

  it('without a probe, a passing fuzzer shows neither credits nor the older state', () => {
    const list = buildChecklist({ merchant: M, coverage: undefined, sandboxProbe: false, receiver: findings({ older_state: 'skipped' }, { ...passed, probe: false }) });
    expect(status(list, 'credits.checked')).toBe('not_met');
    expect(status(list, 'callback.older_state')).toBe('not_met');
    expect(status(list, 'callback.duplicate')).toBe('met');
  });

  it('a flagged case and a fuzzer violation make their rows wrong, over a coverage that met them', () => {
    const fuzz = {
      ...passed,
      passed: false,
      failure: {
        schedule: { trades: [], steps: [] },
        run: { deliveries: [] },
        violations: [{ kind: 'credited_twice' as const, cause: 'credited 100 twice' }],
        path: '0:1',
        failedAfter: 1,
        shrinks: 0,
      },
    } as unknown as ReceiverFindings['fuzz'];
    const list = buildChecklist({ merchant: M, coverage: EVERY_ROW_DONE, sandboxProbe: false, receiver: findings({ bad_signature: 'flagged' }, fuzz, 'http://p') });
    expect(status(list, 'callback.bad_signature')).toBe('wrong');
    expect(list.rows.find((row) => row.id === 'callback.bad_signature')?.evidence[0]).toMatchObject({
      source: 'check-callback',
      status: 'wrong',
      detail: 'bad signature: flagged: bad_signature message',
    });
    expect(status(list, 'callback.duplicate')).toBe('wrong');
    expect(list.rows.find((row) => row.id === 'callback.duplicate')?.evidence[0]?.detail).toBe('credited 100 twice (check-callback --seed 7 --path 0:1 replays it)');
    expect(status(list, 'credits.checked')).toBe('wrong');
    expect(list.ready).toBe(false);
    expect(formatChecklist(list, 'http://sbx')).toMatch(/WRONG +callback\.duplicate +a callback delivered twice/);
  });

  it('a balance probe that breaks its contract makes the credits row wrong', () => {
    const list = buildChecklist({ merchant: M, coverage: undefined, sandboxProbe: false, receiver: { ...findings({}, undefined, 'http://p'), fuzzError: 'the probe answered 500' } });
    expect(list.rows.find((row) => row.id === 'credits.checked')).toMatchObject({ status: 'wrong', evidence: [{ source: 'fuzzer', detail: 'the probe answered 500' }] });
  });
});
