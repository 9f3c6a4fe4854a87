/**
 * The Russian duration units parseDuration (duration.ts) takes beside the `ms` package's English
 * ones, so that "10м", "10 мин", "2 ч" or "1 д" typed on the Russian dashboard, sent to
 * POST /_sandbox/clock/advance or given to `deposit-sandbox clock advance` means what it says.
 * A unit is one of these words exactly (upper or lower case), after a number and any spaces.
 */
const UNITS: Readonly<Record<string, number>> = {
  мс: 1,
  миллисекунда: 1,
  миллисекунды: 1,
  миллисекунду: 1,
  миллисекунд: 1,
  с: 1000,
  сек: 1000,
  секунда: 1000,
  секунды: 1000,
  секунду: 1000,
  секунд: 1000,
  м: 60_000,
  мин: 60_000,
  минута: 60_000,
  минуты: 60_000,
  минуту: 60_000,
  минут: 60_000,
  ч: 3_600_000,
  час: 3_600_000,
  часа: 3_600_000,
  часов: 3_600_000,
  д: 86_400_000,
  дн: 86_400_000,
  день: 86_400_000,
  дня: 86_400_000,
  дней: 86_400_000,
};

/**
 * The units as a regular expression source with each letter a `[xX]` class: the parser and the
 * pattern /openapi.json publishes (src/openapi/input-checks.ts) use this one text, so they agree
 * on every string, and a JSON Schema pattern has no flag for case.
 */
export const RUSSIAN_UNITS_SOURCE = Object.keys(UNITS)
  .sort((a, b) => b.length - a.length)
  .map((unit) => [...unit].map((letter) => `[${letter}${letter.toUpperCase()}]`).join(''))
  .join('|');

/** A number as the `ms` package reads one (a minus sign, digits, one decimal point), spaces, a Russian unit. */
const RUSSIAN_DURATION = new RegExp(`^(-?[0-9]*\\.?[0-9]+) *(${RUSSIAN_UNITS_SOURCE})$`);

/** The usual forms of the units, for messages (UNITS takes more of each word's forms, such as минута and секунды). */
export const RUSSIAN_UNITS_HINT = 'мс, с (сек, секунд), м (мин, минут), ч (час, часа, часов), д (дн, день, дня, дней)';

/** "10 мин" → 600000; undefined when `text` (already trimmed, at most 100 characters) is not a number with a Russian unit. */
export function parseRussianDuration(text: string): number | undefined {
  const match = RUSSIAN_DURATION.exec(text);
  if (!match) return undefined;
  const size = UNITS[(match[2] ?? '').toLowerCase()];
  return size === undefined ? undefined : Number.parseFloat(match[1] ?? '') * size;
}

/** 5000 → "5 с", 900000 → "15 мин", 1500 → "1,5 с": a duration in the largest Russian unit it is a whole number of. */
export function formatRussianDuration(milliseconds: number): string {
  for (const [size, unit] of [
    [86_400_000, 'д'],
    [3_600_000, 'ч'],
    [60_000, 'мин'],
    [1000, 'с'],
  ] as const) {
    if (milliseconds >= size && milliseconds % size === 0) return `${milliseconds / size} ${unit}`;
  }
  return milliseconds >= 1000 ? `${(milliseconds / 1000).toLocaleString('ru-RU')} с` : `${milliseconds} мс`;
}
