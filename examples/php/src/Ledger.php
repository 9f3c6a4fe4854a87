<?php

declare(strict_types=1);

namespace Example\Deposit;

/**
 * The merchant's balance, kept in a JSON file so that every PHP worker shares it (locked
 * while it changes). A trade is credited at most once, however often its callback comes.
 */
final class Ledger
{
    public function __construct(private string $file)
    {
    }

    /** @param array<string, mixed> $trade a trade from a verified callback */
    public function record(array $trade): void
    {
        $handle = fopen($this->file, 'c+');
        flock($handle, LOCK_EX);
        try {
            $state = $this->decode((string) stream_get_contents($handle));
            $id = (string) $trade['id'];
            $state['deliveries'][$id] = ($state['deliveries'][$id] ?? 0) + 1;
            $order = (string) ($trade['order'] ?? '');
            $state['orders'][$order] ??= ['state' => null, 'credited_cents' => 0];
            $state['orders'][$order]['state'] = (string) $trade['state'];
            // The check and the write happen under one exclusive lock, so two overlapping
            // deliveries cannot both see "not credited yet".
            if ($trade['state'] === 'confirmed' && !isset($state['credited'][$id])) {
                $state['credited'][$id] = true;
                $state['balance_cents'] += (int) $trade['amount_cents'];
                $state['orders'][$order]['credited_cents'] += (int) $trade['amount_cents'];
            }
            ftruncate($handle, 0);
            rewind($handle);
            fwrite($handle, json_encode($state, JSON_THROW_ON_ERROR));
            fflush($handle);
        } finally {
            flock($handle, LOCK_UN);
            fclose($handle);
        }
    }

    public function balanceCents(): int
    {
        return $this->read()['balance_cents'];
    }

    /**
     * The shop's state and the kopecks credited for one order: what a balance probe answers.
     *
     * @return array{state: ?string, credited_cents: int}
     */
    public function balance(string $order): array
    {
        return $this->read()['orders'][$order] ?? ['state' => null, 'credited_cents' => 0];
    }

    /** How many verified callbacks arrived for a trade, repeats included. */
    public function deliveries(string $tradeId): int
    {
        return $this->read()['deliveries'][$tradeId] ?? 0;
    }

    /** @return array{balance_cents: int, credited: array<string, bool>, deliveries: array<string, int>, orders: array<string, array{state: ?string, credited_cents: int}>} */
    private function read(): array
    {
        $handle = @fopen($this->file, 'r');
        if ($handle === false) {
            return $this->decode('');
        }
        flock($handle, LOCK_SH);
        $text = (string) stream_get_contents($handle);
        fclose($handle);
        return $this->decode($text);
    }

    /** @return array{balance_cents: int, credited: array<string, bool>, deliveries: array<string, int>, orders: array<string, array{state: ?string, credited_cents: int}>} */
    private function decode(string $text): array
    {
        $empty = ['balance_cents' => 0, 'credited' => [], 'deliveries' => [], 'orders' => []];
        return $text === '' ? $empty : json_decode($text, true, 512, JSON_THROW_ON_ERROR) + $empty;
    }
}
