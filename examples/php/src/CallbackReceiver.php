<?php

declare(strict_types=1);

namespace Example\Deposit;

/** Verifies a callback's X-Signature over the raw body in constant time, then records it. */
final class CallbackReceiver
{
    public function __construct(private string $secret, private Ledger $ledger)
    {
    }

    /** Returns the HTTP status to answer: 204 when recorded, 401 when the signature is wrong. */
    public function handle(string $rawBody, ?string $signature): int
    {
        $expected = hash_hmac('sha256', $rawBody, $this->secret);
        if ($signature === null || !hash_equals($expected, strtolower($signature))) {
            return 401;
        }
        $trade = json_decode($rawBody, true);
        if (!is_array($trade) || !isset($trade['id'], $trade['state'])) {
            return 400;
        }
        $this->ledger->record($trade);
        return 204; // a 2xx for repeats too: they are delivered, just not credited again
    }
}
