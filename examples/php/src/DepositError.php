<?php

declare(strict_types=1);

namespace Example\Deposit;

/** The provider answered something other than the expected status. */
final class DepositError extends \RuntimeException
{
    public function __construct(public readonly int $status, public readonly string $body)
    {
        parent::__construct("the provider answered {$status}: " . substr($body, 0, 300));
    }
}
