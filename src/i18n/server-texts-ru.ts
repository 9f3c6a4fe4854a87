import type { ServerTextCode } from './server-texts-en.js';
import { CARD_REASONS_RU } from './shared-ru.js';
import type { Message } from './translator.js';

/**
 * The texts the server sends with a code (server-texts-en.ts), in Russian, for the Russian
 * dashboard. Every code has one: the type says so, and src/i18n/catalogues.test.ts fails
 * on a code added without one. Raw values (orders, ids, field names, prefixes, HTTP statuses)
 * stay as the parameters give them.
 */
export const SERVER_TEXTS_RU: Record<ServerTextCode, Message> = {
  'history.page.paid': 'Плательщик нажал «Я оплатил» на платёжной странице.',
  'history.page.canceled': 'Плательщик отменил оплату на платёжной странице.',
  'history.page.settled': 'Оплата, сделанная на платёжной странице, перешла в состояние {state}.',
  'history.card.approved': `Тестовая карта {card}: ${CARD_REASONS_RU['card.reason.approved']}`,
  'history.card.declined': `Тестовая карта {card}: ${CARD_REASONS_RU['card.reason.declined']}`,
  'history.card.funds': `Тестовая карта {card}: ${CARD_REASONS_RU['card.reason.funds']}`,
  'history.card.timeout': `Тестовая карта {card}: ${CARD_REASONS_RU['card.reason.timeout']}`,
  'history.card.3ds_confirmed': `Тестовая карта {card}: ${CARD_REASONS_RU['3ds.confirmed']}`,
  'history.card.3ds_wrong_code': `Тестовая карта {card}: ${CARD_REASONS_RU['3ds.wrongCode']}`,
  'history.card.3ds_canceled': `Тестовая карта {card}: ${CARD_REASONS_RU['3ds.canceled']}`,
  'history.scenario': 'сценарий {scenario}',
  'history.scenario.note': 'сценарий {scenario}: {note}',
  'coverage.lost_answer.lost': 'ответ на заказ {order} потерян намеренно; повторите запрос с тем же заказом',
  'coverage.lost_answer.retried': 'заказ {order} повторён с тем же номером после потери ответа',
  'coverage.lost_answer.new_order':
    'после потери ответа на заказ {lost} создан новый заказ {order} с той же суммой и тем же покупателем: повторяйте запрос с тем же заказом, иначе плательщик может заплатить дважды',
  'coverage.lost_answer.new_order_trade':
    'после потери ответа на заказ {lost} создан новый заказ {order} с той же суммой и тем же покупателем (сделка {trade}): повторяйте запрос с тем же заказом, иначе плательщик может заплатить дважды',
  'coverage.acknowledged': 'подтверждён ответом 2xx',
  'coverage.retry.acknowledged': 'подтверждён после неудачной попытки',
  'coverage.bad_signature.accepted': 'копия с неверной X-Signature принята ({answer}): проверяйте подпись и отвечайте 401',
  'coverage.bad_signature.refused': 'копия с неверной X-Signature отклонена ({answer})',
  'coverage.duplicate.acknowledged': 'обе доставки колбэка подтверждены ответом 2xx',
  'coverage.duplicate.wrong': 'на вторую доставку того же колбэка пришёл ответ {answer}: подтверждайте повторы ответом 2xx',
  'coverage.duplicate.wrong_no_answer': 'на вторую доставку того же колбэка ответа не было: подтверждайте повторы ответом 2xx',
  'coverage.delivery.wrong': 'на доставку пришёл ответ {answer}',
  'coverage.delivery.wrong_no_answer': 'на доставку ответа не было',
  'coverage.overlapping.acknowledged': 'каждый из перекрывающихся колбэков подтверждён ответом 2xx',
  'coverage.overlapping.wrong': 'на перекрывающийся колбэк пришёл ответ {answer}',
  'coverage.overlapping.wrong_no_answer': 'на перекрывающийся колбэк ответа не было',
  'coverage.never_acknowledged': {
    one: 'не подтверждён: {count} попытка не удалась',
    few: 'не подтверждён: {count} попытки не удались',
    many: 'не подтверждён: {count} попыток не удались',
    other: 'не подтверждён: {count} попытки не удались',
  },
  'coverage.never_acknowledged.last': {
    one: 'не подтверждён: {count} попытка не удалась, последняя с ответом {answer}',
    few: 'не подтверждён: {count} попытки не удались, последняя с ответом {answer}',
    many: 'не подтверждён: {count} попыток не удались, последняя с ответом {answer}',
    other: 'не подтверждён: {count} попытки не удались, последняя с ответом {answer}',
  },
  'coverage.never_acknowledged.last_no_answer': {
    one: 'не подтверждён: {count} попытка не удалась, на последнюю ответа не было',
    few: 'не подтверждён: {count} попытки не удались, на последнюю ответа не было',
    many: 'не подтверждён: {count} попыток не удались, на последнюю ответа не было',
    other: 'не подтверждён: {count} попытки не удались, на последнюю ответа не было',
  },
  'coverage.credit.reading': '{base}; читаем пробу баланса',
  'coverage.credit.unchecked': '{base}; зачисление не проверено: проба баланса {problem}',
  'coverage.credit.right': '{base}; проба баланса показывает по заказу {order}: {shows}',
  'coverage.credit.wrong': 'подтверждён ответом 2xx, но проба баланса показывает по заказу {order}: {shows}; {advice}',
  'credit.none': 'ничего не зачислено',
  'credit.once': 'зачислено {amount} один раз',
  'credit.twice': 'зачислено {amount} дважды ({credited})',
  'credit.times': {
    one: 'зачислено {amount} {count} раз ({credited})',
    few: 'зачислено {amount} {count} раза ({credited})',
    many: 'зачислено {amount} {count} раз ({credited})',
    other: 'зачислено {amount} {count} раза ({credited})',
  },
  'credit.not_credited': 'не зачислено (credited_cents 0, состояние по пробе: {probe_state})',
  'credit.wrong_amount': 'зачислено {credited}, а amount_cents сделки равен {amount}',
  'credit.unconfirmed': 'зачислено {credited}, хотя сделка в состоянии {trade_state} (состояние по пробе: {probe_state})',
  'credit.advice.race':
    'две перекрывающиеся доставки одного события зачислили обе: приёмник сначала проверяет, потом пишет, без уникального ключа и блокировки; пусть сама запись отклоняет вторую (уникальный индекс по идентификатору сделки и состоянию, INSERT … ON CONFLICT DO NOTHING или SELECT … FOR UPDATE)',
  'credit.advice.bad_signature': 'копия с неверной X-Signature тоже зачислена: сначала проверяйте X-Signature и ничего не меняйте, если она не совпадает',
  'credit.advice.dedup':
    'приёмник не отсеивает повторы: колбэк может прийти снова (тот же X-Sandbox-Event-Id или повтор); зачисляйте сделку не более одного раза, по идентификатору сделки и состоянию',
  'credit.advice.not_credited': 'зачисляйте amount_cents, когда приходит настоящий колбэк о подтверждении, до ответа 2xx (проба должна читать то, что записал обработчик колбэка)',
  'credit.advice.wrong_amount': 'зачисляйте ровно amount_cents (копейки) сделки',
  'credit.advice.unconfirmed': 'зачисляйте, только когда настоящий колбэк сообщает о подтверждении',
  'note.sustained_polling': 'более {reads} чтений сделки {trade} за минуту: дождитесь колбэка, а если опрашивать всё же нужно, читайте сделку не чаще раза в секунду',
  'note.sustained_polling.repeated': {
    one: 'более {reads} чтений сделки {trade} за минуту ({count} раз): дождитесь колбэка, а если опрашивать всё же нужно, читайте сделку не чаще раза в секунду',
    few: 'более {reads} чтений сделки {trade} за минуту ({count} раза): дождитесь колбэка, а если опрашивать всё же нужно, читайте сделку не чаще раза в секунду',
    many: 'более {reads} чтений сделки {trade} за минуту ({count} раз): дождитесь колбэка, а если опрашивать всё же нужно, читайте сделку не чаще раза в секунду',
    other: 'более {reads} чтений сделки {trade} за минуту ({count} раза): дождитесь колбэка, а если опрашивать всё же нужно, читайте сделку не чаще раза в секунду',
  },
  'trigger.and': ' и ',
  'trigger.order.prefix': 'order начинается с {prefix}',
  'trigger.order.exact': 'order равен {order}',
  'trigger.order.regex': 'order подходит под {regex}',
  'trigger.amount.exact': 'amount_cents равен {amount}',
  'trigger.amount.last_digits': 'amount_cents оканчивается на {digits}',
  'trigger.amount.range': 'amount_cents от {min} до {max}',
  'trigger.amount.min': 'amount_cents не меньше {min}',
  'trigger.amount.max': 'amount_cents не больше {max}',
  'trigger.customer.exact': 'customer равен {customer}',
  'trigger.customer.regex': 'customer подходит под {regex}',
  'trigger.type': 'тип {types}',
  'trigger.merchant': 'магазин {merchants}',
  'trigger.header_only': 'только заголовок {header}: {name}',
};
