import { AUTH_HEADER } from '../auth/authenticate.js';
import type { Credentials, ProbeRequest } from './drift-types.js';
import type { RequestSigner, Spoil } from './request-signer.js';

/** What a probe is built from on one side (the target, or the sandbox): its credentials, signer, callback URL and trades so far. */
export interface ProbeSide {
  credentials: Credentials;
  /** A second merchant, for the other merchant's trade. */
  other?: Credentials;
  signer: RequestSigner;
  /** The callback_url of the trades created, when callbacks are checked. */
  callbackUrl?: string;
  /** The trades created on this side so far, by the probe that created them. */
  trades: ReadonlyMap<string, { id: string; order: string }>;
}

/** The random parts of one probe, drawn once and sent alike to both sides. */
export interface ProbeDraw {
  /** A new order: `drift-` and random hex. */
  order: string;
  /** A random UUID: an unknown merchant or trade. */
  uuid: string;
  /** A token that is no merchant's. */
  wrongToken: string;
  /** A secret that is no merchant's: signs a wrong signature. */
  wrongSecret: string;
}

export interface Probe {
  /** Stable: reports, JUnit and the docs name probes by it. */
  id: string;
  /** What it sends, in words. */
  what: string;
  /** The probe whose trade it reads or repeats; skipped when that trade is missing on either side. */
  needs?: string;
  /** Sent only with a second merchant's credentials (--other-merchant, --other-token, --other-secret). */
  needsOther?: boolean;
  /** False for a step that only makes a trade for a later probe: its answer is not compared. */
  compared: boolean;
  build(side: ProbeSide, draw: ProbeDraw, amount: number): ProbeRequest;
}

const CREATE = '/api/v1/trades/deposit/create';
const BUILD = '/api/v1/trades/deposit/build';

type Body = Record<string, unknown>;

/** A valid body of the document's fields, in its order: merchant, order, amount_cents, amount_currency, type, callback_url. */
function tradeBody(side: ProbeSide, draw: ProbeDraw, amount: number, type: string, credentials = side.credentials): Body {
  return { merchant: credentials.merchant, order: draw.order, amount_cents: amount, amount_currency: 'RUB', type, ...(side.callbackUrl !== undefined ? { callback_url: side.callbackUrl } : {}) };
}

function post(endpoint: 'create' | 'build', body: Body, headers: Record<string, string>): ProbeRequest {
  return { method: 'POST', path: endpoint === 'create' ? CREATE : BUILD, endpoint, headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) };
}

/** A create or build signed by the side's signer (spoilt when asked), with the body changed by `change`. */
function signedPost(endpoint: 'create' | 'build', side: ProbeSide, body: Body, spoil?: Spoil, signer: RequestSigner = side.signer, credentials = side.credentials): ProbeRequest {
  return post(endpoint, body, signer.headers(endpoint, body, credentials, spoil));
}

function getTrade(side: ProbeSide, merchant: string, id: string, spoil?: Spoil): ProbeRequest {
  const values = { merchant, uuid: id };
  return { method: 'GET', path: `/api/v1/trades/${encodeURIComponent(merchant)}/${encodeURIComponent(id)}`, endpoint: 'get', headers: side.signer.headers('get', values, side.credentials, spoil) };
}

/** The trade a probe needs; the run skips the probe before building it when the trade is missing. */
function tradeOf(side: ProbeSide, probe: string): { id: string; order: string } {
  const trade = side.trades.get(probe);
  if (!trade) throw new Error(`No trade of ${probe} on this side: the probe should have been skipped.`);
  return trade;
}

/** The same headers with the endpoint's token header sent under the other endpoint's name. */
function renameTokenHeader(request: ProbeRequest, to: string): ProbeRequest {
  const from = AUTH_HEADER[request.endpoint];
  const { [from]: value, ...rest } = request.headers;
  return { ...request, headers: value === undefined ? rest : { ...rest, [to]: value } };
}

const without = (body: Body, field: string): Body => Object.fromEntries(Object.entries(body).filter(([name]) => name !== field));

const valid = (id: string, endpoint: 'create' | 'build', type: string): Probe => ({
  id,
  what: `a valid ${endpoint} of type ${type}`,
  compared: true,
  build: (side, draw, amount) => signedPost(endpoint, side, tradeBody(side, draw, amount, type)),
});

const read = (id: string, trade: string): Probe => ({
  id,
  what: `a get of ${trade}'s trade`,
  needs: trade,
  compared: true,
  build: (side) => getTrade(side, side.credentials.merchant, tradeOf(side, trade).id),
});

const missing = (field: string): Probe => ({
  id: `create.missing_${field}`,
  what: `a create without ${field}`,
  compared: true,
  build: (side, draw, amount) => signedPost('create', side, without(tradeBody(side, draw, amount, 'any_bank'), field)),
});

const changed = (id: string, what: string, endpoint: 'create' | 'build', type: string, change: (body: Body) => Body): Probe => ({
  id,
  what,
  compared: true,
  build: (side, draw, amount) => signedPost(endpoint, side, change(tradeBody(side, draw, amount, type))),
});

/** The valid probes, whose trades the others read and whose callbacks are awaited. */
export const TRADE_PROBES = { any_bank: 'create.any_bank', nspk: 'create.nspk', ecom: 'build.ecom' } as const;

/**
 * The probes, in the order they are sent: the valid requests and the reads of their trades,
 * then each documented mistake. Their ids are stable (docs/drift.md lists them).
 */
export const PROBES: readonly Probe[] = [
  valid(TRADE_PROBES.any_bank, 'create', 'any_bank'),
  valid(TRADE_PROBES.nspk, 'create', 'nspk'),
  valid(TRADE_PROBES.ecom, 'build', 'ecom'),
  read('get.any_bank', TRADE_PROBES.any_bank),
  read('get.nspk', TRADE_PROBES.nspk),
  read('get.ecom', TRADE_PROBES.ecom),
  {
    id: 'auth.missing_header',
    what: 'a create with no auth header at all',
    compared: true,
    build: (side, draw, amount) => post('create', tradeBody(side, draw, amount, 'any_bank'), {}),
  },
  {
    id: 'auth.create_with_x_token',
    what: "a create whose X-Auth value is sent as X-Token, the get endpoint's header",
    compared: true,
    build: (side, draw, amount) => renameTokenHeader(signedPost('create', side, tradeBody(side, draw, amount, 'any_bank')), AUTH_HEADER.get),
  },
  {
    id: 'auth.get_with_x_auth',
    what: "a get of create.any_bank's trade whose X-Token value is sent as X-Auth, the create endpoints' header",
    needs: TRADE_PROBES.any_bank,
    compared: true,
    build: (side) => renameTokenHeader(getTrade(side, side.credentials.merchant, tradeOf(side, TRADE_PROBES.any_bank).id), AUTH_HEADER.create),
  },
  {
    id: 'auth.wrong_token',
    what: "a create whose X-Auth holds a token that is no merchant's (a signature in a header of its own stays right)",
    compared: true,
    build: (side, draw, amount) => signedPost('create', side, tradeBody(side, draw, amount, 'any_bank'), { token: draw.wrongToken }),
  },
  {
    id: 'auth.wrong_signature',
    what: "a create signed with a secret that is no merchant's",
    compared: true,
    build: (side, draw, amount) => signedPost('create', side, tradeBody(side, draw, amount, 'any_bank'), { secret: draw.wrongSecret }),
  },
  {
    id: 'auth.unknown_merchant',
    what: 'a create for a merchant id nobody has, signed with the secret',
    compared: true,
    build: (side, draw, amount) => signedPost('create', side, { ...tradeBody(side, draw, amount, 'any_bank'), merchant: draw.uuid }),
  },
  missing('merchant'),
  missing('order'),
  missing('amount_cents'),
  missing('amount_currency'),
  missing('type'),
  changed('create.wrong_currency', 'a create with amount_currency USD', 'create', 'any_bank', (body) => ({ ...body, amount_currency: 'USD' })),
  changed('create.float_amount', 'a create with amount_cents written with a fraction (the amount and a half)', 'create', 'any_bank', (body) => ({
    ...body,
    amount_cents: Number(body['amount_cents']) + 0.5,
  })),
  changed('create.type_ecom', "a create of type ecom, the build endpoint's type", 'create', 'ecom', (body) => body),
  changed('build.type_any_bank', "a build of type any_bank, the create endpoint's type", 'build', 'any_bank', (body) => body),
  {
    id: 'create.repeated_order',
    what: "a valid create with create.any_bank's order again",
    needs: TRADE_PROBES.any_bank,
    compared: true,
    build: (side, draw, amount) => signedPost('create', side, { ...tradeBody(side, draw, amount, 'any_bank'), order: tradeOf(side, TRADE_PROBES.any_bank).order }),
  },
  {
    id: 'get.unknown_trade',
    what: 'a get of a trade id nobody has',
    compared: true,
    build: (side, draw) => getTrade(side, side.credentials.merchant, draw.uuid),
  },
  {
    id: 'setup.other_merchant',
    what: 'a valid create of type any_bank as the second merchant, for the next probe (not compared)',
    needsOther: true,
    compared: false,
    build: (side, draw, amount) => {
      const other = side.other;
      if (!other) throw new Error('No second merchant: the probe should have been skipped.');
      return signedPost('create', side, tradeBody(side, draw, amount, 'any_bank', other), undefined, side.signer, other);
    },
  },
  {
    id: 'get.other_merchant_trade',
    what: "a get, as the merchant, of the second merchant's trade",
    needs: 'setup.other_merchant',
    needsOther: true,
    compared: true,
    build: (side) => getTrade(side, side.credentials.merchant, tradeOf(side, 'setup.other_merchant').id),
  },
];

/**
 * The probe that tries another way to authenticate a valid create, when the target refuses the
 * profile's. For a signing in a header of its own, which sends the token too, `spoil` sends it
 * again with a wrong token, or with a signature made with a wrong secret, to tell which of the
 * two the target checks.
 */
export function signingProbe(signer: RequestSigner, spoil?: 'token' | 'secret'): Probe {
  return {
    id: `signing.${signer.id}${spoil === undefined ? '' : spoil === 'token' ? '.wrong_token' : '.wrong_secret'}`,
    what:
      spoil === undefined
        ? `create.any_bank again, authenticated as ${signer.label} (only when the target refused create.any_bank with 401 and the sandbox accepted it)`
        : `signing.${signer.id} again with ${spoil === 'token' ? 'a wrong token' : 'a signature made with a wrong secret'} (only when the target accepted signing.${signer.id})`,
    compared: false,
    build: (side, draw, amount) =>
      signedPost(
        'create',
        { ...side, signer },
        tradeBody(side, draw, amount, 'any_bank'),
        spoil === 'token' ? { token: draw.wrongToken } : spoil === 'secret' ? { secret: draw.wrongSecret } : undefined,
        signer,
      ),
  };
}
