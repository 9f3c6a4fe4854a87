/**
 * The `errors.body` of the `sandbox` profile (profiles/sandbox.yaml; a test keeps the two the
 * same): the sandbox's own envelope. A profile with this template answers in the envelope
 * itself, with its diagnostics (`signature` on a signature mismatch) that four placeholders
 * cannot carry.
 */
export const DEFAULT_ERROR_BODY = '{"error":{"status":{{status}},"code":{{code}},"message":{{message}},"details":{{details}}}}';
