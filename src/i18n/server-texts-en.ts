import { PAY_EN } from './pay-en.js';
import type { Catalogue } from './translator.js';

/**
 * The texts the server sends in English beside a code and its parameters (`note_code` and
 * `note_params` of a history entry, `detail_code` and `detail_params` of a report row or note,
 * `magic_parts` of a scenario): the server builds its English line from these templates, and
 * the Russian dashboard says the same code with server-texts-ru.ts. A text the server sends
 * without a code (an admin's note, a merchant's own scenario note) is shown as it is.
 */
export const SERVER_TEXTS_EN = {
  // History notes (GET /_sandbox/trades/:id `history[].note`).
  'history.page.paid': 'The payer pressed "I have paid" on the payment page.',
  'history.page.canceled': 'The payer canceled the payment on the payment page.',
  'history.page.settled': 'The payment made on the payment page went on to {state}.',
  'history.card.approved': `Test card {card}: ${PAY_EN['card.reason.approved']}`,
  'history.card.declined': `Test card {card}: ${PAY_EN['card.reason.declined']}`,
  'history.card.funds': `Test card {card}: ${PAY_EN['card.reason.funds']}`,
  'history.card.timeout': `Test card {card}: ${PAY_EN['card.reason.timeout']}`,
  'history.card.3ds_confirmed': `Test card {card}: ${PAY_EN['3ds.confirmed']}`,
  'history.card.3ds_wrong_code': `Test card {card}: ${PAY_EN['3ds.wrongCode']}`,
  'history.card.3ds_canceled': `Test card {card}: ${PAY_EN['3ds.canceled']}`,
  'history.scenario': 'scenario {scenario}',
  'history.scenario.note': 'scenario {scenario}: {note}',
  // The integration report's coverage details (GET /_sandbox/report `coverage[].rows[].detail`).
  'coverage.lost_answer.lost': 'the answer to order {order} was lost on purpose; retry with the same order',
  'coverage.lost_answer.retried': 'order {order} was retried with the same order after its answer was lost',
  'coverage.lost_answer.new_order':
    'after the answer to order {lost} was lost, a new order {order} with the same amount and customer was created: retry with the same order instead, or the payer may pay twice',
  'coverage.lost_answer.new_order_trade':
    'after the answer to order {lost} was lost, a new order {order} with the same amount and customer was created (trade {trade}): retry with the same order instead, or the payer may pay twice',
  'coverage.acknowledged': 'acknowledged with 2xx',
  'coverage.retry.acknowledged': 'acknowledged after a failed attempt',
  'coverage.bad_signature.accepted': 'the copy with a wrong X-Signature was accepted ({answer}): verify the signature and answer 401',
  'coverage.bad_signature.refused': 'the copy with a wrong X-Signature was refused ({answer})',
  'coverage.duplicate.acknowledged': 'both deliveries of the callback were acknowledged with 2xx',
  'coverage.duplicate.wrong': 'the second delivery of the same callback was answered {answer}: acknowledge repeats with 2xx',
  'coverage.duplicate.wrong_no_answer': 'the second delivery of the same callback was answered {answer}: acknowledge repeats with 2xx',
  'coverage.delivery.wrong': 'a delivery was answered {answer}',
  'coverage.delivery.wrong_no_answer': 'a delivery was answered {answer}',
  'coverage.overlapping.acknowledged': 'every overlapping callback was acknowledged with 2xx',
  'coverage.overlapping.wrong': 'an overlapping callback was answered {answer}',
  'coverage.overlapping.wrong_no_answer': 'an overlapping callback was answered {answer}',
  'coverage.never_acknowledged': 'never acknowledged: {count} attempts failed',
  'coverage.never_acknowledged.last': 'never acknowledged: {count} attempts failed, the last with {answer}',
  'coverage.never_acknowledged.last_no_answer': 'never acknowledged: {count} attempts failed, the last with {answer}',
  // A callback row's detail with a balance probe (serve --probe): {base} is the row's own detail, {shows} what the probe showed, {advice} what to change.
  'coverage.credit.reading': '{base}; reading the balance probe',
  'coverage.credit.unchecked': '{base}; credit not checked: the balance probe {problem}',
  'coverage.credit.right': '{base}; the balance probe shows order {order} {shows}',
  'coverage.credit.wrong': 'acknowledged with 2xx, but the balance probe shows order {order} {shows}: {advice}',
  'credit.none': 'nothing credited',
  'credit.once': 'credited {amount} once',
  'credit.twice': 'credited {amount} twice ({credited})',
  'credit.times': 'credited {amount} {count} times ({credited})',
  'credit.not_credited': 'not credited (credited_cents 0, state {probe_state})',
  'credit.wrong_amount': "credited {credited}, but the trade's amount_cents is {amount}",
  'credit.unconfirmed': 'credited {credited} although the trade is {trade_state}, state {probe_state}',
  'credit.advice.race':
    'two deliveries of one event overlapped and both credited: the receiver checks and then writes without a unique key or a lock; make the write itself refuse the second (a unique index on trade id + state, INSERT … ON CONFLICT DO NOTHING, or SELECT … FOR UPDATE)',
  'credit.advice.bad_signature': 'the copy with a wrong X-Signature was credited too: verify X-Signature first and change nothing when it does not match',
  'credit.advice.dedup': 'the receiver does not de-duplicate: a callback can arrive again (same X-Sandbox-Event-Id, or a replay); credit a trade at most once, by trade id and state',
  'credit.advice.not_credited': 'credit amount_cents when a genuine "confirmed" arrives, before answering 2xx (the probe must read what the callback handler wrote)',
  'credit.advice.wrong_amount': 'credit exactly amount_cents (kopecks) of the trade',
  'credit.advice.unconfirmed': 'credit only when a genuine callback says "confirmed"',
  // The integration report's notes (`notes[].detail`).
  'note.sustained_polling': 'more than {reads} reads of trade {trade} within a minute: wait for the callback, and when you must poll, read a trade at most once a second',
  'note.sustained_polling.repeated': 'more than {reads} reads of trade {trade} within a minute ({count} times): wait for the callback, and when you must poll, read a trade at most once a second',
  // What triggers a scenario (GET /_sandbox/scenarios `magic`, its parts joined by trigger.and).
  'trigger.and': ' and ',
  'trigger.order.prefix': 'order starting with {prefix}',
  'trigger.order.exact': 'order {order}',
  'trigger.order.regex': 'order matching {regex}',
  'trigger.amount.exact': 'amount_cents {amount}',
  'trigger.amount.last_digits': 'amount_cents ending in {digits}',
  'trigger.amount.range': 'amount_cents from {min} to {max}',
  'trigger.amount.min': 'amount_cents of at least {min}',
  'trigger.amount.max': 'amount_cents of at most {max}',
  'trigger.customer.exact': 'customer {customer}',
  'trigger.customer.regex': 'customer matching {regex}',
  'trigger.type': 'type {types}',
  'trigger.merchant': 'merchant {merchants}',
  'trigger.header_only': '{header}: {name} only',
} satisfies Catalogue;

/** Every code the server sends beside an English text. */
export type ServerTextCode = keyof typeof SERVER_TEXTS_EN;
