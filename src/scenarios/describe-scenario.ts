import { relative, isAbsolute, basename } from 'node:path';
import { z } from 'zod';
import { callbackBehaviourSchema } from '../callbacks/behaviour.js';
import { formatDuration } from '../clock/duration.js';
import { type CodedText, codedText, textParamsSchema } from '../i18n/coded-text.js';
import { SERVER_TEXTS_EN } from '../i18n/server-texts-en.js';
import { stateNameSchema } from '../trades/trade.js';
import type { LoadedScenario } from './load-scenarios.js';
import { SCENARIO_HEADER, type AmountMatch, type Scenario, type ScenarioMatch } from './scenario.js';

/** One scenario as listings show it (GET /_sandbox/scenarios, `deposit-sandbox scenarios --json`). */
export const scenarioSummarySchema = z.object({
  name: z.string(),
  description: z.string(),
  /** The description in Russian, when the scenario file gives one (`description_ru`): the Russian dashboard shows it. */
  description_ru: z.string().optional(),
  /** The file it comes from: `scenarios/<file>` for bundled ones, else the path (relative to the working folder when inside it). */
  source: z.string(),
  line: z.number().int(),
  bundled: z.boolean(),
  /** Every condition, e.g. `order matches /^sbx-confirm-/`; `X-Sandbox-Scenario header only` without a match block. */
  match: z.string(),
  /** What to send to trigger it, e.g. `order starting with "sbx-confirm-"`. */
  magic: z.string(),
  /** The conditions of `magic`, each as a code (src/i18n/server-texts-en.ts) and the values it names, for a dashboard to say in its language. */
  magic_parts: z.array(z.object({ code: z.string(), params: textParamsSchema })),
  /** What it does, e.g. `confirmed after 5s`. */
  does: z.string(),
  respond: z.object({ status: z.number().int(), code: z.string(), message: z.string(), retry_after_ms: z.number().optional(), first_only: z.boolean().optional() }).nullable(),
  delay_ms: z.number().nullable(),
  /** What becomes of the create answer after the trade is saved: lost (no answer) or delayed. */
  answer: z.object({ lost: z.boolean(), delay_ms: z.number().nullable() }).nullable(),
  timeline: z.array(z.object({ after_ms: z.number(), state: stateNameSchema })),
  callbacks: callbackBehaviourSchema.nullable(),
});
export type ScenarioSummary = z.infer<typeof scenarioSummarySchema>;

/** A condition in plain text (with its code and parameters) and in Markdown (for the README table). */
export interface Phrase extends CodedText {
  markdown: string;
}

const phrase = (coded: CodedText, markdown: string): Phrase => ({ ...coded, markdown });

const quote = (value: string) => JSON.stringify(value);
const code = (value: string) => `\`${value.replace(/`/g, "'")}\``;

/** A regex that is `^literal` (optionally `$`-ended): the literal, else undefined. */
function literalPrefix(source: string): { prefix: string; exact: boolean } | undefined {
  const found = /^\^((?:[^\\^$.|?*+()[\]{}]|\\[-.^$|?*+()[\]{}/\\])+)(\$?)$/.exec(source);
  if (!found?.[1]) return undefined;
  return { prefix: found[1].replace(/\\(.)/g, '$1'), exact: found[2] === '$' };
}

function amountPhrase(amount: AmountMatch): Phrase {
  if (typeof amount === 'number') return phrase(codedText('trigger.amount.exact', { amount }), `amount_cents ${code(String(amount))}`);
  if (amount.last_digits !== undefined) {
    return phrase(codedText('trigger.amount.last_digits', { digits: amount.last_digits }), `amount_cents ending in ${code(amount.last_digits)}`);
  }
  const { min, max } = amount;
  const coded =
    min !== undefined && max !== undefined
      ? codedText('trigger.amount.range', { min, max })
      : min !== undefined
        ? codedText('trigger.amount.min', { min })
        : codedText('trigger.amount.max', { max: max ?? 0 });
  return phrase(coded, coded.text);
}

/** Each condition of a match block as a phrase a person would say: "order starting with "sbx-confirm-"". */
export function magicPhrases(match: ScenarioMatch | undefined): Phrase[] {
  if (!match) return [];
  const phrases: Phrase[] = [];
  if (match.order !== undefined) {
    const literal = literalPrefix(match.order);
    phrases.push(
      literal
        ? literal.exact
          ? phrase(codedText('trigger.order.exact', { order: quote(literal.prefix) }), `order ${code(literal.prefix)}`)
          : phrase(codedText('trigger.order.prefix', { prefix: quote(literal.prefix) }), `order starting with ${code(literal.prefix)}`)
        : phrase(codedText('trigger.order.regex', { regex: `/${match.order}/` }), `order matching ${code(`/${match.order}/`)}`),
    );
  }
  if (match.amount !== undefined) phrases.push(amountPhrase(match.amount));
  if (match.customer !== undefined) {
    phrases.push(
      typeof match.customer === 'string'
        ? phrase(codedText('trigger.customer.exact', { customer: quote(match.customer) }), `customer ${code(match.customer)}`)
        : phrase(codedText('trigger.customer.regex', { regex: `/${match.customer.regex}/` }), `customer matching ${code(`/${match.customer.regex}/`)}`),
    );
  }
  if (match.type !== undefined) {
    const types = [match.type].flat();
    phrases.push(phrase(codedText('trigger.type', { types }), `type ${types.map(code).join(' or ')}`));
  }
  if (match.merchant !== undefined) {
    const merchants = [match.merchant].flat();
    phrases.push(phrase(codedText('trigger.merchant', { merchants }), `merchant ${merchants.map(code).join(' or ')}`));
  }
  return phrases;
}

/** Every condition, formally: `order matches /^sbx-confirm-/ and type in [ecom]`. */
export function matchSummary(match: ScenarioMatch | undefined): string {
  if (!match) return `${SCENARIO_HEADER} header only`;
  const parts: string[] = [];
  if (match.type !== undefined) parts.push(`type in [${[match.type].flat().join(', ')}]`);
  if (match.merchant !== undefined) parts.push(`merchant in [${[match.merchant].flat().join(', ')}]`);
  if (match.amount !== undefined) {
    const amount = match.amount;
    parts.push(
      typeof amount === 'number'
        ? `amount_cents = ${amount}`
        : amount.last_digits !== undefined
          ? `amount_cents ends in ${amount.last_digits}`
          : `amount_cents in [${amount.min ?? 0}, ${amount.max ?? '∞'}]`,
    );
  }
  if (match.order !== undefined) parts.push(`order matches /${match.order}/`);
  if (match.customer !== undefined) parts.push(typeof match.customer === 'string' ? `customer = ${quote(match.customer)}` : `customer matches /${match.customer.regex}/`);
  return parts.join(' and ');
}

export const DEFAULT_CODES = { 401: 'scenario_unauthorized', 422: 'scenario_rejected', 503: 'service_unavailable' } as const;

/** What a scenario does, in one line: `create answers 422 trade_rejected; nothing is stored`. */
export function effectSummary(scenario: Scenario): string {
  const parts: string[] = [];
  const late = scenario.delay !== undefined ? ` after ${formatDuration(scenario.delay)} (real time)` : '';
  if (scenario.respond) {
    const { status, code, retry_after, first_only } = scenario.respond;
    const retry = retry_after !== undefined ? ` with Retry-After ${Math.ceil(retry_after / 1000)}` : '';
    const first = first_only ? "an order's first create answers" : 'create answers';
    return `${first} ${status} ${code ?? DEFAULT_CODES[status]}${retry}${late}; no trade is stored${first_only ? '; a retry of the same order creates the trade' : ''}`;
  }
  if (late) parts.push(`create answers${late}`);
  if (scenario.answer?.lost) parts.push('the trade is saved, then the connection is closed with no answer');
  if (scenario.answer?.delay !== undefined)
    parts.push(`the trade is saved, then the answer comes after ${scenario.answer.delay % 1000 === 0 ? `${scenario.answer.delay / 1000}s` : `${scenario.answer.delay}ms`} (real time)`);
  for (const step of scenario.timeline ?? []) parts.push(`${step.state} after ${formatDuration(step.after)}`);
  const callbacks = scenario.callbacks;
  if (callbacks) {
    if (callbacks.delay !== undefined) parts.push(`callbacks start ${formatDuration(callbacks.delay)} late`);
    const failing = callbacks.fail_first ?? 0;
    if (failing > 0) parts.push(`the first ${failing === 1 ? 'attempt of each callback fails' : `${failing} attempts of each callback fail`}, then retries deliver it`);
    if (callbacks.bad_signature) parts.push('each callback event is first sent once with a wrong X-Signature');
    if (callbacks.duplicate) parts.push('each delivered callback is sent a second time');
    if (callbacks.overlap) parts.push('each callback is delivered twice at the same moment (same event id, both signed)');
  }
  if (!scenario.timeline?.length) parts.push('the trade waits for the payment page or an admin action');
  return parts.join('; ');
}

function sourceOf(entry: LoadedScenario): string {
  if (entry.bundled) return `scenarios/${basename(entry.file)}`;
  const rel = relative(process.cwd(), entry.file);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : entry.file;
}

export function summarize(entry: LoadedScenario): ScenarioSummary {
  const { scenario } = entry;
  const phrases = magicPhrases(scenario.match);
  const parts: CodedText[] = phrases.length > 0 ? phrases : [codedText('trigger.header_only', { header: SCENARIO_HEADER, name: scenario.name })];
  return {
    name: scenario.name,
    description: scenario.description,
    ...(scenario.description_ru !== undefined ? { description_ru: scenario.description_ru } : {}),
    source: sourceOf(entry),
    line: entry.line,
    bundled: entry.bundled,
    match: matchSummary(scenario.match),
    magic: parts.map((part) => part.text).join(SERVER_TEXTS_EN['trigger.and']),
    magic_parts: parts.map((part) => ({ code: part.code, params: part.params })),
    does: effectSummary(scenario),
    respond: scenario.respond
      ? {
          status: scenario.respond.status,
          code: scenario.respond.code ?? DEFAULT_CODES[scenario.respond.status],
          message: scenario.respond.message,
          ...(scenario.respond.retry_after !== undefined ? { retry_after_ms: scenario.respond.retry_after } : {}),
          ...(scenario.respond.first_only ? { first_only: true } : {}),
        }
      : null,
    delay_ms: scenario.delay ?? null,
    answer: scenario.answer ? { lost: scenario.answer.lost === true, delay_ms: scenario.answer.delay ?? null } : null,
    timeline: (scenario.timeline ?? []).map((step) => ({ after_ms: step.after, state: step.state })),
    callbacks: scenario.callbacks ?? null,
  };
}
