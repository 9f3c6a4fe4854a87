/**
 * Russian words the payment pages and the dashboard both say: trade states and types, and what
 * a test card or the 3-D Secure step told the payer (the dashboard repeats it in a trade's
 * history). Kept here once, so the two catalogues cannot drift apart; neither page's own texts
 * come with it into the other's bundle.
 */
export const TRADE_WORDS_RU = {
  'state.created': 'ожидает оплаты',
  'state.confirmed': 'оплачена',
  'state.canceled': 'отменена',
  'state.expired': 'истекла',
  'type.any_bank': 'перевод на карту',
  'type.nspk': 'перевод по номеру телефона (СБП)',
  'type.ecom': 'оплата картой',
} as const;

export const CARD_REASONS_RU = {
  'card.reason.approved': 'Платёж одобрен.',
  'card.reason.declined': 'Банк-эмитент отклонил карту (общий отказ).',
  'card.reason.funds': 'Карта отклонена: недостаточно средств.',
  'card.reason.timeout': 'Банк не ответил вовремя: время платежа вышло, сделка истекла.',
  '3ds.wrongCode': 'Неверный код 3-D Secure: банк отклонил платёж.',
  '3ds.canceled': 'Плательщик отменил проверку 3-D Secure.',
  '3ds.confirmed': 'Код 3-D Secure принят: платёж одобрен.',
} as const;
