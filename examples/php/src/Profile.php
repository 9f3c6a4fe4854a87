<?php

declare(strict_types=1);

namespace Example\Deposit;

/**
 * A provider profile's signing and acknowledgement rules (docs/provider-profile.md), written from
 * each built-in profile with PHP's own hash functions: how a request is signed and where the
 * signature travels, how a callback is signed, and what acknowledges one.
 * DEPOSIT_SANDBOX_PROFILE names the profile the client and the receiver follow (default sandbox).
 */
final class Profile
{
    /** Each endpoint's signature parameters, in the interface document's order. */
    public const SIGNATURE_FIELDS = [
        'create' => ['amount_cents', 'amount_currency', 'callback_url', 'cusotmer', 'merchant', 'order', 'return_url', 'type'],
        'build' => ['amount_cents', 'amount_currency', 'callback_url', 'cusotmer', 'merchant', 'order', 'return_url', 'type'],
        'get' => ['merchant', 'uuid'],
    ];
    /** The header that carries the merchant's token (and the signature, unless the profile has a header of its own). */
    public const TOKEN_HEADER = ['create' => 'X-Auth', 'build' => 'X-Auth', 'get' => 'X-Token'];
    /** What a request-style callback signature covers: the body's top-level values in the Trade object's order. */
    private const CALLBACK_FIELDS = ['id', 'order', 'merchant', 'state', 'amount_cents', 'amount_currency', 'rate'];

    /** name => [algorithm, separator, secret, encoding, header, callbacks, acknowledge] */
    private const BUILTIN = [
        'sandbox' => ['hmac-sha256', '::', 'key', 'hex', null, 'sandbox', '2xx'],
        'sha256-secret-last' => ['sha256', '::', 'last-slot', 'hex', null, 'request-style', '2xx'],
        'hmac-sha512-base64' => ['hmac-sha512', '::', 'key', 'base64', 'X-Signature', 'request-style', '2xx'],
        'md5-colon' => ['md5', ':', 'last-slot', 'hex', null, 'request-style', 'ok-text'],
        'standard-webhooks' => ['hmac-sha256', '::', 'key', 'hex', null, 'standard-webhooks', 'code-zero'],
        'strict' => ['hmac-sha256', '::', 'key', 'hex', null, 'sandbox', '2xx'],
    ];

    private function __construct(
        public readonly string $name,
        public readonly string $algorithm, // hmac-sha256 | hmac-sha512 | sha256 | sha512 | sha1 | md5
        public readonly string $separator,
        public readonly string $secret, // key (the HMAC key) | last-slot | first-slot (plain hashes)
        public readonly string $encoding, // hex | base64
        public readonly ?string $header, // null: the endpoint's token header
        public readonly string $callbacks, // sandbox | request-style | standard-webhooks
        public readonly string $acknowledge, // 2xx | ok-text | code-zero
    ) {
    }

    /** @return list<string> the built-in profiles' names */
    public static function names(): array
    {
        return array_keys(self::BUILTIN);
    }

    public static function builtin(string $name): self
    {
        if (!isset(self::BUILTIN[$name])) {
            throw new \InvalidArgumentException("{$name} is not a built-in profile: " . implode(', ', self::names()));
        }
        return new self($name, ...self::BUILTIN[$name]);
    }

    /** The built-in profile DEPOSIT_SANDBOX_PROFILE names; sandbox when it is unset. */
    public static function fromEnv(): self
    {
        return self::builtin(getenv('DEPOSIT_SANDBOX_PROFILE') ?: 'sandbox');
    }

    /** A value as the string to sign writes it: absent or null empty, true/false in lowercase. */
    private static function slot(mixed $value): string
    {
        return match (true) {
            $value === null => '',
            is_bool($value) => $value ? 'true' : 'false',
            default => (string) $value,
        };
    }

    /** @param list<string> $slots */
    private function join(array $slots, string $secret): string
    {
        if ($this->secret === 'last-slot') {
            $slots[] = $secret;
        } elseif ($this->secret === 'first-slot') {
            array_unshift($slots, $secret);
        }
        return implode($this->separator, $slots);
    }

    private function digest(string $secret, string $message): string
    {
        $raw = str_starts_with($this->algorithm, 'hmac-')
            ? hash_hmac(substr($this->algorithm, 5), $message, $secret, true)
            : hash($this->algorithm, $message, true);
        return $this->encoding === 'hex' ? bin2hex($raw) : base64_encode($raw);
    }

    /**
     * The endpoint's values in the document's order joined with the separator, the secret one
     * more slot for a plain hash (shown as <secret> unless given); "customer" fills the "cusotmer" slot.
     *
     * @param array<string, scalar|null> $values
     */
    public function stringToSign(string $endpoint, array $values, string $secret = '<secret>'): string
    {
        $values['cusotmer'] ??= $values['customer'] ?? null;
        return $this->join(array_map(static fn (string $field): string => self::slot($values[$field] ?? null), self::SIGNATURE_FIELDS[$endpoint]), $secret);
    }

    /** @param array<string, scalar|null> $values */
    public function signRequest(string $secret, string $endpoint, array $values): string
    {
        return $this->digest($secret, $this->stringToSign($endpoint, $values, $secret));
    }

    /** Where the signature travels: the profile's own header, or the endpoint's token header. */
    public function signatureHeader(string $endpoint): string
    {
        return $this->header ?? self::TOKEN_HEADER[$endpoint];
    }

    /**
     * The auth headers of a signed request, as curl takes them: the signature in its header and,
     * when that is a header of its own, the merchant's token in X-Auth / X-Token beside it.
     *
     * @param array<string, scalar|null> $values
     * @return list<string>
     */
    public function requestHeaders(string $secret, string $endpoint, array $values, string $token = ''): array
    {
        $headers = $this->header === null ? [] : [self::TOKEN_HEADER[$endpoint] . ': ' . $token];
        $headers[] = $this->signatureHeader($endpoint) . ': ' . $this->signRequest($secret, $endpoint, $values);
        return $headers;
    }

    /**
     * True when the callback's signature is the one the profile's scheme makes, compared in
     * constant time (hex in either case).
     *
     * @param array<string, string> $headers the request's headers, names in any case
     */
    public function verifyCallback(string $secret, array $headers, string $rawBody): bool
    {
        $headers = array_change_key_case($headers, CASE_LOWER);
        switch ($this->callbacks) {
            case 'sandbox':
                return hash_equals(hash_hmac('sha256', $rawBody, $secret), strtolower($headers['x-signature'] ?? ''));
            case 'request-style':
                // A float's text: PHP writes 92.5 as the body does; a value past 14 digits may differ.
                $body = json_decode($rawBody, true);
                if (!is_array($body)) {
                    return false;
                }
                $expected = $this->digest($secret, $this->join(array_map(static fn (string $field): string => self::slot($body[$field] ?? null), self::CALLBACK_FIELDS), $secret));
                $received = trim($headers[strtolower($this->header ?? 'X-Signature')] ?? '');
                return hash_equals($expected, $this->encoding === 'hex' ? strtolower($received) : $received);
            case 'standard-webhooks':
                $key = str_starts_with($secret, 'whsec_') ? (string) base64_decode(substr($secret, 6), true) : $secret;
                $signed = ($headers['webhook-id'] ?? '') . '.' . ($headers['webhook-timestamp'] ?? '') . '.' . $rawBody;
                $expected = 'v1,' . base64_encode(hash_hmac('sha256', $signed, $key, true));
                foreach (preg_split('/\s+/', trim($headers['webhook-signature'] ?? '')) as $sent) {
                    if (hash_equals($expected, $sent)) {
                        return true;
                    }
                }
                return false;
        }
        return false;
    }

    /** @return array{0: int, 1: string} what a receiver answers to acknowledge a callback: the status and the body */
    public function acknowledgement(): array
    {
        return match ($this->acknowledge) {
            'ok-text' => [200, 'OK'], // exactly OK: no newline, no other case
            'code-zero' => [200, '{"code":0}'],
            default => [204, ''],
        };
    }
}
