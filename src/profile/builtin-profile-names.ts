/**
 * The built-in profiles, each a file `profiles/<name>.yaml` (a test keeps this list and the
 * folder equal). Named by the scheme they model, not by a company.
 */
export const BUILTIN_PROFILE_NAMES = ['sandbox', 'sha256-secret-last', 'hmac-sha512-base64', 'md5-colon', 'standard-webhooks', 'strict'] as const;
export type BuiltinProfileName = (typeof BUILTIN_PROFILE_NAMES)[number];
