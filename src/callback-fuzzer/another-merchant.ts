/**
 * The secret of the fuzzer's forgery "signed with another merchant's secret" (run-schedule.ts,
 * `otherSecret`): another merchant's of the same list, else one made from this merchant's.
 */
export function anotherMerchantsSecret(merchants: readonly { readonly id: string; readonly secret: string }[], id: string, secret: string): string {
  const other = merchants.find((m) => m.id.toLowerCase() !== id.toLowerCase() && m.secret !== secret);
  return other?.secret ?? `${secret}:another-merchant`;
}
