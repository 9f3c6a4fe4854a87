import { z } from 'zod';
import { ADVANCE_LIMIT_MS } from '../clock/duration.js';
import { durationSchema } from '../clock/duration-schema.js';
import { RUSSIAN_UNITS_SOURCE } from '../clock/russian-units.js';
import { TRANSITIONS } from '../lifecycle/transitions.js';
import { STATE_FIELDS, TRADE_STATES, type TradeState } from '../trades/trade.js';

/**
 * What the routes check beyond what their zod schemas say in JSON Schema (a refine, a transform,
 * the lifecycle's table), written as JSON Schema for /openapi.json, so that a schema-driven tester
 * does not send values the document allows and the sandbox refuses. test/in-process/openapi-refusals.test.ts
 * checks each against the code that does the checking.
 */

/**
 * The states `POST /_sandbox/trades/{id}/transition` can move a trade to: every state some state
 * may move to (src/lifecycle/transitions.ts). `created` and `ecom` are states too, but no trade
 * ever moves to them (a 409 whatever the trade's state); any other value is a 422.
 */
export const TRANSITION_TARGETS: readonly TradeState[] = [...new Set(Object.values(TRANSITIONS).flat())];

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
 * characters) or the same number with a Russian unit (src/clock/russian-units.ts), and not
 * negative. A minus sign is therefore allowed only before a zero (`-0s` is 0 ms, which is not
 * negative). The lookahead bounds the trimmed text: its last letter or digit is at most 100
 * characters from its start.
 */
export const DURATION_PATTERN = `^${TRIMMED}*(?=.{0,99}[0-9A-Za-z\\u0400-\\u04ff]${TRIMMED}*$)(?:[0-9]*\\.?[0-9]+|-0*\\.?0+)(?: *(?:${UNITS}|${RUSSIAN_UNITS_SOURCE}))?${TRIMMED}*$`;

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

type Json = Record<string, unknown>;

/**
 * A duration (durationSchema, also once refined or given metadata, which makes a copy of it with
 * the same input): parsed by a transform, which JSON Schema cannot describe.
 */
const isDuration = (schema: unknown): boolean =>
  schema === durationSchema || (schema instanceof z.ZodPipe && schema._zod.def.in === durationSchema._zod.def.in && schema._zod.def.out === durationSchema._zod.def.out);

/**
 * A z.toJSONSchema override that describes durations: what comes in (io "input": the pattern of
 * what parseDuration accepts, or milliseconds) and what goes out (milliseconds).
 */
export function durations(io: 'input' | 'output') {
  return (ctx: { zodSchema: unknown; jsonSchema: Json }) => {
    if (!isDuration(ctx.zodSchema)) return;
    for (const key of Object.keys(ctx.jsonSchema)) delete ctx.jsonSchema[key];
    Object.assign(
      ctx.jsonSchema,
      io === 'output'
        ? { type: 'number', minimum: 0, description: 'milliseconds' }
        : {
            anyOf: [
              {
                type: 'string',
                pattern: DURATION_PATTERN,
                description: 'a duration such as "500ms", "10s", "5m", "2h" or "1d" (the units of the ms package, in any case), or with a Russian unit such as "10м", "10 мин", "2 ч" or "1 д"',
              },
              { type: 'number', minimum: 0, description: 'milliseconds' },
            ],
          },
    );
  };
}

/**
 * A z.toJSONSchema override that writes a state field (stateField(), src/trades/trade.ts: any
 * well-formed name, since a record keeps the state an earlier provider profile moved it to) as
 * the list of the sandbox's own states; a profile's intermediate states are added to the
 * document of a sandbox that follows one (src/openapi/states-document.ts).
 */
export function stateNames(ctx: { zodSchema: unknown; jsonSchema: Json }): void {
  if (!STATE_FIELDS.has(ctx.zodSchema as z.ZodType)) return;
  for (const key of Object.keys(ctx.jsonSchema)) delete ctx.jsonSchema[key];
  Object.assign(ctx.jsonSchema, { type: 'string', enum: [...TRADE_STATES] });
}

/** JSON Schema keywords added to the string branch and the number branch of a property, and its description. */
interface Checks {
  string?: Json;
  number?: Json;
  description?: string;
}

const UUID: Checks = { string: { format: 'uuid' } };
const HTTP_URL: Checks = { string: { format: 'uri', pattern: HTTP_URL_PATTERN }, description: HTTP_URL_NOTE };

/**
 * What the routes check beyond what zod says in JSON Schema (formats zod checks more loosely or
 * not at all, a refine, a check in the handler), per property of a named component.
 */
const CHECKS: Record<string, Record<string, Checks>> = {
  Trade: { id: UUID, merchant: UUID },
  EcomTrade: { id: UUID, merchant: UUID },
  AdminTrade: { id: UUID, merchant: UUID },
  CreateRequest: { merchant: UUID, callback_url: HTTP_URL, return_url: HTTP_URL },
  BuildRequest: { merchant: UUID, callback_url: HTTP_URL, return_url: HTTP_URL },
  TransitionRequest: {
    state: {
      string: { enum: [...TRANSITION_TARGETS] },
      description: 'The state to move the trade to. created and ecom are trade states too, but no trade moves to them (409).',
    },
  },
  AdvanceRequest: { by: { number: { maximum: ADVANCE_LIMIT_MS }, description: 'How far to move the clock: at most 10 years (3650d); a longer duration is a 422.' } },
  CheckCallbackRequest: { url: HTTP_URL },
};

/** Adds the CHECKS to the component schemas of /openapi.json that have them (`schemas` by component id). */
export function addChecks(schemas: Record<string, Json>): void {
  for (const [id, fields] of Object.entries(CHECKS)) {
    if (!schemas[id]) continue; // in the other set (requests or answers)
    const properties = (schemas[id]['properties'] ?? {}) as Record<string, Json>;
    for (const [name, checks] of Object.entries(fields)) {
      const property = properties[name];
      if (!property) throw new Error(`openapi: ${id} has no property ${name}`);
      const branches = property['anyOf'] ? (property['anyOf'] as Json[]) : [property];
      for (const type of ['string', 'number'] as const) {
        const keywords = checks[type];
        if (!keywords) continue;
        const typed = branches.filter((branch) => branch['type'] === type);
        if (typed.length === 0) throw new Error(`openapi: ${id}.${name} has no ${type} branch`);
        for (const branch of typed) Object.assign(branch, keywords);
      }
      if (checks.description) property['description'] = checks.description;
    }
  }
}
