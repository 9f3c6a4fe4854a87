<?php

declare(strict_types=1);

namespace Example\Deposit;

/**
 * A small client of the Deposit Trade Service (signature mode), php-curl only. It signs as
 * $profile says (null: the built-in DEPOSIT_SANDBOX_PROFILE names, else sandbox's HMAC-SHA256 hex
 * in X-Auth / X-Token); $token goes beside a signature that has a header of its own.
 */
final class DepositClient
{
    /** The create signature's fields, in the interface document's order. */
    public const CREATE_FIELDS = ['amount_cents', 'amount_currency', 'callback_url', 'cusotmer', 'merchant', 'order', 'return_url', 'type'];

    private Profile $profile;

    public function __construct(
        private string $baseUrl,
        private string $merchant,
        private string $secret,
        private int $timeoutSeconds = 10,
        ?Profile $profile = null,
        private string $token = '',
    ) {
        $this->baseUrl = rtrim($baseUrl, '/');
        $this->profile = $profile ?? Profile::fromEnv();
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
     * POST /api/v1/trades/deposit/create (P2P: any_bank or nspk), signed in X-Auth (or in the profile's own header).
     *
     * @param array<string, string> $optional customer, callback_url, return_url
     * @return array<string, mixed> the trade
     */
    public function create(string $order, int $amountCents, string $type = 'any_bank', array $optional = []): array
    {
        $body = ['merchant' => $this->merchant, 'order' => $order, 'amount_cents' => $amountCents, 'amount_currency' => 'RUB', 'type' => $type] + $optional;
        $headers = $this->profile->requestHeaders($this->secret, 'create', $body, $this->token);
        return $this->call('POST', '/api/v1/trades/deposit/create', $headers, json_encode($body, JSON_THROW_ON_ERROR), 201);
    }

    /**
     * create(), surviving an answer that never comes (the connection closed, or a timeout): the
     * trade may be saved all the same, so the create is retried with the SAME order first. A 201
     * is the trade. A 422 duplicate_order says an earlier attempt saved it. Its id is then read
     * from the error where the provider names it; where it does not, that trade's requisites never
     * reached us, so the payer cannot pay it: it is left to expire (its callbacks carry its order
     * and id, so the receiver still learns it) and the payer gets a trade under $newOrder.
     *
     * @param array<string, string> $optional
     * @return array<string, mixed> the trade to show the payer: its "order" says which order that is
     */
    public function createOrRecover(string $order, int $amountCents, string $type = 'any_bank', array $optional = [], ?string $newOrder = null): array
    {
        for ($attempt = 0; ; $attempt++) {
            try {
                return $this->create($order, $amountCents, $type, $optional);
            } catch (DepositError $refused) {
                if ($refused->status !== 422 || !str_contains($refused->body, '"duplicate_order"')) {
                    throw $refused;
                }
                // An earlier attempt was saved. The sandbox names it in the message: a convenience of
                // its own, which a provider profile turns off (duplicate_order_names_trade: false).
                if (preg_match('/\(id ([0-9a-f-]{36})\)/', $refused->body, $saved) === 1) {
                    return $this->get($saved[1]);
                }
                if ($newOrder === null || $newOrder === $order) {
                    throw $refused;
                }
                // The document gives no way to find a trade by its order: a new order for the payer.
                return $this->createOrRecover($newOrder, $amountCents, $type, $optional);
            } catch (\RuntimeException $noAnswer) {
                if ($attempt >= 2) {
                    throw $noAnswer; // no answer: saved or not, we cannot tell; ask again
                }
            }
        }
    }

    /**
     * GET /api/v1/trades/:merchant/:uuid, signed over merchant::uuid in X-Token (or in the profile's own header).
     *
     * @return array<string, mixed> the trade
     */
    public function get(string $tradeId): array
    {
        $headers = $this->profile->requestHeaders($this->secret, 'get', ['merchant' => $this->merchant, 'uuid' => $tradeId], $this->token);
        return $this->call('GET', "/api/v1/trades/{$this->merchant}/" . rawurlencode($tradeId), $headers, null, 200);
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
