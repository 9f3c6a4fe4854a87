<?php

declare(strict_types=1);

namespace Example\Deposit;

/** A small client of the Deposit Trade Service (signature mode), php-curl only. */
final class DepositClient
{
    /** The create signature's fields, in the interface document's order. */
    public const CREATE_FIELDS = ['amount_cents', 'amount_currency', 'callback_url', 'cusotmer', 'merchant', 'order', 'return_url', 'type'];

    public function __construct(
        private string $baseUrl,
        private string $merchant,
        private string $secret,
        private int $timeoutSeconds = 10,
    ) {
        $this->baseUrl = rtrim($baseUrl, '/');
    }

    /** Lowercase hex HMAC-SHA256 of the string to sign, keyed with the merchant's secret. */
    public static function sign(string $secret, string $stringToSign): string
    {
        return hash_hmac('sha256', $stringToSign, $secret);
    }

    /**
     * The values of the create fields joined with "::"; an absent field is empty. The document
     * spells the payer field "cusotmer"; the body's "customer" fills it.
     *
     * @param array<string, scalar|null> $body
     */
    public static function createStringToSign(array $body): string
    {
        $body['cusotmer'] ??= $body['customer'] ?? null;
        return implode('::', array_map(static fn (string $field): string => (string) ($body[$field] ?? ''), self::CREATE_FIELDS));
    }

    /**
     * POST /api/v1/trades/deposit/create (P2P: any_bank or nspk), signed in X-Auth.
     *
     * @param array<string, string> $optional customer, callback_url, return_url
     * @return array<string, mixed> the trade
     */
    public function create(string $order, int $amountCents, string $type = 'any_bank', array $optional = []): array
    {
        $body = ['merchant' => $this->merchant, 'order' => $order, 'amount_cents' => $amountCents, 'amount_currency' => 'RUB', 'type' => $type] + $optional;
        $signature = self::sign($this->secret, self::createStringToSign($body));
        return $this->call('POST', '/api/v1/trades/deposit/create', ['X-Auth: ' . $signature], json_encode($body, JSON_THROW_ON_ERROR), 201);
    }

    /**
     * create(), surviving an answer that never comes: the trade may be saved although the
     * connection closed (or timed out) without an answer, so it asks again with the SAME order;
     * a 422 duplicate_order then names the saved trade, which is read and returned. Never a new order.
     *
     * @param array<string, string> $optional
     * @return array<string, mixed> the trade
     */
    public function createOrRecover(string $order, int $amountCents, string $type = 'any_bank', array $optional = []): array
    {
        for ($attempt = 0; ; $attempt++) {
            try {
                return $this->create($order, $amountCents, $type, $optional);
            } catch (DepositError $refused) {
                $found = preg_match('/\(id ([0-9a-f-]{36})\)/', $refused->body, $saved);
                if ($refused->status !== 422 || !str_contains($refused->body, '"duplicate_order"') || $found !== 1) {
                    throw $refused;
                }
                return $this->get($saved[1]); // an earlier attempt was saved: that is our trade
            } catch (\RuntimeException $noAnswer) {
                if ($attempt >= 2) {
                    throw $noAnswer; // no answer: saved or not, we cannot tell; ask again
                }
            }
        }
    }

    /**
     * GET /api/v1/trades/:merchant/:uuid, signed over merchant::uuid in X-Token.
     *
     * @return array<string, mixed> the trade
     */
    public function get(string $tradeId): array
    {
        $signature = self::sign($this->secret, $this->merchant . '::' . $tradeId);
        return $this->call('GET', "/api/v1/trades/{$this->merchant}/" . rawurlencode($tradeId), ['X-Token: ' . $signature], null, 200);
    }

    /**
     * @param list<string> $headers
     * @return array<string, mixed>
     */
    private function call(string $method, string $path, array $headers, ?string $body, int $expected): array
    {
        $curl = curl_init($this->baseUrl . $path);
        curl_setopt_array($curl, [
            CURLOPT_CUSTOMREQUEST => $method,
            CURLOPT_HTTPHEADER => array_merge(['Content-Type: application/json', 'Accept: application/json'], $headers),
            CURLOPT_RETURNTRANSFER => true,
            CURLOPT_TIMEOUT => $this->timeoutSeconds,
        ]);
        if ($body !== null) {
            curl_setopt($curl, CURLOPT_POSTFIELDS, $body);
        }
        $answer = curl_exec($curl);
        if ($answer === false) {
            throw new \RuntimeException("{$method} {$path}: " . curl_error($curl));
        }
        $status = curl_getinfo($curl, CURLINFO_RESPONSE_CODE);
        curl_close($curl);
        if ($status !== $expected) {
            throw new DepositError($status, (string) $answer);
        }
        return json_decode((string) $answer, true, 512, JSON_THROW_ON_ERROR);
    }
}
