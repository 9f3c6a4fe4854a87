import type { SignedEndpoint } from './signature.js';

/**
 * When a signature does not verify: does it verify (`verifies`, under the scheme in force) over the string to sign with amount_cents
 * written as a float (`100.0`, `100.00`), as Python's str(100.0) or a float-typed JSON encoder
 * writes it? Answers that spelling, so the 401 can name the cause; undefined otherwise.
 */
export function amountWrittenAsFloat(verifies: (values: Readonly<Record<string, unknown>>) => boolean, endpoint: SignedEndpoint, values: Readonly<Record<string, unknown>>): string | undefined {
  const amount = values['amount_cents'];
  if (endpoint === 'get' || typeof amount !== 'number' || !Number.isSafeInteger(amount)) return undefined;
  for (const written of [`${amount}.0`, `${amount}.00`]) {
    if (verifies({ ...values, amount_cents: written })) return written;
  }
  return undefined;
}
