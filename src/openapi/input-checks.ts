import { TRANSITIONS } from '../lifecycle/transitions.js';
import type { TradeState } from '../trades/trade.js';

/**
 * What the routes check beyond what their zod schemas say in JSON Schema (a refine, a transform,
 * the lifecycle's table), written as JSON Schema for /openapi.json, so that a schema-driven tester
 * does not send values the document allows and the sandbox refuses. test/openapi-refusals.test.ts
 * checks each against the code that does the checking.
 */

/**
 * The states `POST /_sandbox/trades/{id}/transition` can move a trade to: every state some state
 * may move to (src/lifecycle/transitions.ts). `created` and `ecom` are states too, but no trade
 * ever moves to them (a 409 whatever the trade's state); any other value is a 422.
 */
export const TRANSITION_TARGETS: readonly TradeState[] = [...new Set(Object.values(TRANSITIONS).flat())];

/** The furthest one `POST /_sandbox/clock/advance` moves the clock: 10 years of 365 days (3650d), in ms. */
export const ADVANCE_LIMIT_MS = 3650 * 24 * 3600 * 1000;

/**
 * ASCII letters of `source` (a regular expression of letters, groups and `|?`) as `[xX]` classes:
 * the duration units are matched without regard to case, and a JSON Schema pattern has no flags.
 */
const anyCase = (source: string) => source.replace(/[a-z]/g, (letter) => `[${letter}${letter.toUpperCase()}]`);

/**
 * What String.prototype.trim() removes: ECMAScript's WhiteSpace and LineTerminator code points.
 * Written out rather than as `\s`, which other regex dialects (Python's) read differently.
 */
const TRIMMED = '[\\t\\n\\v\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff]';

/**
 * The units of the `ms` package's parser: ms, msec(s), millisecond(s), s, sec(s), second(s), m,
 * min(s), minute(s), h, hr(s), hour(s), d, day(s), w, week(s), y, yr(s), year(s).
 */
const UNITS = anyCase('m(?:illiseconds?|secs?|s|inutes?|ins?)?|s(?:ec(?:ond)?s?)?|h(?:ours?|rs?)?|d(?:ays?)?|w(?:eeks?)?|y(?:ears?|rs?)?');

/**
 * A duration string exactly as parseDuration (src/clock/duration.ts) accepts it: trimmed, then the
 * `ms` package's grammar (a decimal number, spaces, an optional unit in any case; at most 100
 * characters), and not negative. A minus sign is therefore allowed only before a zero (`-0s` is
 * 0 ms, which is not negative). The lookahead bounds the trimmed text: its last letter or digit is
 * at most 100 characters from its start.
 */
export const DURATION_PATTERN = `^${TRIMMED}*(?=.{0,99}[0-9A-Za-z]${TRIMMED}*$)(?:[0-9]*\\.?[0-9]+|-0*\\.?0+)(?: *(?:${UNITS}))?${TRIMMED}*$`;

/** A port a WHATWG URL parser refuses: above 65535 (or written with more than five digits). */
const BAD_PORT = '(?:[0-9]{6,}|6553[6-9]|655[4-9][0-9]|65[6-9][0-9]{2}|6[6-9][0-9]{3}|[7-9][0-9]{4})';

/**
 * An http:// or https:// URL with a host, as isHttpUrl (src/trades/requests.ts) requires beyond
 * `format: uri`: the scheme in any case, then an authority (up to the first `/`, `?` or `#`)
 * made of an optional `user:password@`, a host that is not empty and an optional port of at most
 * 65535, which is what a WHATWG URL parser needs to find a host.
 */
export const HTTP_URL_PATTERN = `^[Hh][Tt][Tt][Pp][Ss]?://(?:[^/?#@]*@)?(?![^/?#@]*:${BAD_PORT}(?:[/?#]|$))[^/?#@:][^/?#@]*(?:[/?#]|$)`;

/** The same, said in words for the document. */
export const HTTP_URL_NOTE =
  'An absolute http:// or https:// URL with a host, read by a WHATWG URL parser (as browsers and Node do): besides what the pattern says, an IPv4 address with a part above 255, or a host that is not a valid domain name once percent-decoded (`%2f`, an invalid `xn--` label), is refused.';
