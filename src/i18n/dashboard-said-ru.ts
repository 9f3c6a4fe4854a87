import type { Catalogue } from './translator.js';

/**
 * What the Russian dashboard says where the English one shows the server's own English words:
 * the receiver check's cases and advice (said again from each case's fields: its case, verdict
 * and answer), the provider's refusal of a New trade create (from its error code and fields, the
 * provider's text kept beside it, since that is what the merchant's code sees) and the clock
 * field's refusal. English has no catalogue of these: its page shows what the server wrote.
 */
export const DASHBOARD_SAID_RU = {
  // The receiver check's cases (POST /_sandbox/check-callback `cases[].case`).
  'case.valid': 'верный колбэк',
  'case.duplicate': 'тот же колбэк ещё раз',
  'case.older_state': 'более старое состояние после нового',
  'case.bad_signature': 'неверная подпись',
  'case.no_signature': 'без подписи',
  // Its advice, by case and outcome; {answer} is "ответ 500" or "нет ответа", {ack} the answer the profile counts as an acknowledgement.
  'advice.valid.ok': 'Верно подписанный колбэк принят ({status}).',
  'advice.valid.refused':
    'Верно подписанный колбэк отклонён ({answer}). Проверяйте подпись так, как её делает провайдер: по байтам тела, как они пришли (а не по заново собранному JSON), с секретом магазина.',
  'advice.valid.flagged':
    'Верно подписанный колбэк не принят ({answer}). Отвечайте {ack}, когда колбэк проверен и сохранён: на любой другой ответ сервис повторяет колбэк и в конце помечает его неудачным. Отвечайте быстро, а долгую работу делайте потом.',
  'advice.duplicate.ok': 'Повтор того же колбэка принят ({status}).',
  'advice.duplicate.flagged':
    'Повтор того же колбэка не принят ({answer}). Колбэк приходит хотя бы один раз: на повтор отвечайте {ack}, не делая работу дважды (запоминайте обработанные события или делайте обновление идемпотентным).',
  'advice.older_state.ok':
    'На «ожидает оплаты» после «оплачена» ответ {status}. Убедитесь, что он проигнорирован: старое состояние не должно откатывать заказ назад (эта проверка не видит ваших данных).',
  'advice.older_state.flagged':
    '«Ожидает оплаты» после «оплачена» не принят ({answer}). Отвечайте {ack} и игнорируйте его, оставляя более новое состояние: иначе сервис повторяет колбэк, который никогда не пройдёт.',
  'advice.forged.what.bad_signature': 'с неверной подписью',
  'advice.forged.what.no_signature': 'без подписи',
  'advice.forged.accepted':
    'Принят колбэк {what} ({status}): любой, кто доберётся до этого URL, сможет отметить заказы оплаченными. Сначала проверяйте подпись и отвечайте 401, если она не совпадает.',
  'advice.forged.ok': 'Колбэк {what} отклонён ({status}).',
  'advice.forged.quiet2xx': 'Колбэк {what} отклонён ответом {status} с телом, которое профиль не считает подтверждением. Отвечайте 401 или 403, чтобы отказ был виден в логах и мониторинге.',
  'advice.forged.noAnswer': 'На колбэк {what} нет ответа. Он не принят, но лучше сразу отвечать 401.',
  'advice.forged.other': 'Колбэк {what} отклонён, но ответом {status}. Отвечайте 401 или 403.',
  'advice.skipped': 'Не отправлен: приёмник не ответил на первый колбэк.',
  'advice.answer': 'ответ {status}',
  'advice.noAnswer': 'нет ответа',
  // The provider's refusal of a create (its `error.code`; validation_failed names the fields).
  'refusal.validation_failed': {
    one: 'Провайдер не принял поле {fields}: проверьте значение и формат.',
    few: 'Провайдер не принял поля {fields}: проверьте значения и формат.',
    many: 'Провайдер не принял поля {fields}: проверьте значения и формат.',
    other: 'Провайдер не принял поля {fields}: проверьте значения и формат.',
  },
  'refusal.invalid_json': 'Тело запроса не разобрано как JSON.',
  'refusal.duplicate_order': 'Такой номер заказа у этого магазина уже есть: для новой сделки нужен новый номер (повтор с тем же номером — это повтор той же сделки).',
  'refusal.missing_auth_header': 'В запросе нет заголовка с токеном магазина.',
  'refusal.wrong_auth_header': 'Токен магазина прислан не в том заголовке.',
  'refusal.invalid_token': 'Провайдер не принял токен магазина.',
  'refusal.signature_mismatch': 'Подпись запроса не совпала с той, что посчитал провайдер.',
  'refusal.missing_signature': 'В запросе нет подписи, которую ждёт профиль провайдера.',
  'refusal.unknown_merchant': 'Провайдер не знает этот магазин.',
  'refusal.body_too_large': 'Тело запроса слишком большое.',
  'refusal.other': 'Провайдер отказал с кодом {code}.',
  'refusal.said': 'Текст провайдера (его видит код магазина):',
  // The clock field.
  'clock.notDuration': '«{value}» — не длительность. Напишите, на сколько перевести часы: например 10м, 10 мин, 2 ч, 1 д или 30 с (можно и 10m, 2h).',
  'clock.tooFar': 'За один раз часы переводятся не больше чем на 10 лет (3650 д).',
} satisfies Catalogue;
