<?php

declare(strict_types=1);

namespace Example\Deposit;

/**
 * Verifies a callback's signature over the raw body in constant time, then records it. $profile
 * says how callbacks are signed and acknowledged (null: the built-in DEPOSIT_SANDBOX_PROFILE
 * names, else sandbox's: X-Signature, hex HMAC-SHA256 of the raw body, and any 2xx).
 */
final class CallbackReceiver
{
    private Profile $profile;

    public function __construct(private string $secret, private Ledger $ledger, ?Profile $profile = null)
    {
        $this->profile = $profile ?? Profile::fromEnv();
    }

    /** Returns the HTTP status to answer: 2xx when recorded, 401 when the X-Signature is wrong. */
    public function handle(string $rawBody, ?string $signature): int
    {
        return $this->receive($rawBody, $signature === null ? [] : ['X-Signature' => $signature])[0];
    }

    /**
     * The answer to a callback: [status, body]. The profile's acknowledgement when it is recorded
     * (a repeat too: it is delivered, just not credited again), 401 when the signature is wrong.
     *
     * @param array<string, string> $headers the request's headers (getallheaders())
     * @return array{0: int, 1: string}
     */
    public function receive(string $rawBody, array $headers): array
    {
        if (!$this->profile->verifyCallback($this->secret, $headers, $rawBody)) {
            return [401, ''];
        }
        $trade = json_decode($rawBody, true);
        if (!is_array($trade) || !isset($trade['id'], $trade['state'])) {
            return [400, ''];
        }
        $this->ledger->record($trade);
        return $this->profile->acknowledgement();
    }
}
