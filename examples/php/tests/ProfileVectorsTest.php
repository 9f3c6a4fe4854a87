<?php

declare(strict_types=1);

namespace Example\Deposit\Tests;

use Example\Deposit\Profile;
use PHPUnit\Framework\TestCase;

/**
 * Each built-in provider profile's request signing, computed here with PHP's own hash functions
 * (src/Profile.php: hash_hmac, hash, base64_encode), must match the sandbox's byte for byte:
 * the string to sign, the signature, and the headers it travels in, as `deposit-sandbox sign
 * --batch` prints them (every case in one process; each line is what `sign --profile <p> --json`
 * prints). Three requests per profile: a create with every field (a Cyrillic customer among
 * them), a create with the optional fields left out, and a get.
 */
final class ProfileVectorsTest extends TestCase
{
    private const MERCHANT = '6f1c2a9e-3b7d-4c52-9a1e-2d4b8f0c7e51'; // the bundled demo merchant
    private const SECRET = 'sandbox-secret-demo';
    private const VECTORS = [
        ['create', ['amount_cents' => '31250', 'amount_currency' => 'RUB', 'callback_url' => 'https://shop.example/callbacks/deposit',
            'customer' => 'Иван Петров', 'merchant' => self::MERCHANT, 'order' => 'order-1001', 'return_url' => 'https://shop.example/thanks', 'type' => 'any_bank']],
        ['create', ['amount_cents' => '100', 'amount_currency' => 'RUB', 'merchant' => self::MERCHANT, 'order' => 'a::b:c', 'type' => 'nspk']],
        ['get', ['merchant' => self::MERCHANT, 'uuid' => '3f2a4b1c-5d6e-4f70-8a9b-0c1d2e3f4a5b']],
    ];

    /** @var array<string, array<string, mixed>> what the sign command printed, by case */
    private static array $signed = [];

    /** @return iterable<string, array{string, string, array<string, string>}> */
    public static function cases(): iterable
    {
        foreach (Profile::names() as $name) {
            foreach (self::VECTORS as $i => [$endpoint, $values]) {
                yield "{$name} {$endpoint} {$i}" => [$name, $endpoint, $values];
            }
        }
    }

    /**
     * Signs every case in one `deposit-sandbox sign --batch` process: one request per line in, its
     * --json result on one line out, in order (DEPOSIT_SANDBOX_COMMAND replaces the command).
     */
    public static function setUpBeforeClass(): void
    {
        $command = explode(' ', getenv('DEPOSIT_SANDBOX_COMMAND') ?: 'node ' . dirname(__DIR__, 3) . '/bin/deposit-sandbox.js');
        $env = array_filter(getenv(), static fn (string $name): bool => !str_starts_with($name, 'DEPOSIT_SANDBOX_'), ARRAY_FILTER_USE_KEY);
        $cases = iterator_to_array(self::cases());
        $requests = '';
        foreach ($cases as [$name, $endpoint, $values]) {
            $requests .= json_encode(['profile' => $name, 'endpoint' => $endpoint, 'fields' => $values], JSON_THROW_ON_ERROR) . "\n";
        }
        $process = proc_open([...$command, 'sign', '--batch', '--secret', self::SECRET], [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes, null, $env);
        self::assertIsResource($process);
        fwrite($pipes[0], $requests);
        fclose($pipes[0]);
        $out = (string) stream_get_contents($pipes[1]);
        $err = (string) stream_get_contents($pipes[2]);
        self::assertSame(0, proc_close($process), $err . $out);
        $lines = explode("\n", rtrim($out, "\n"));
        self::assertCount(count($cases), $lines, $out);
        foreach (array_keys($cases) as $i => $case) {
            self::$signed[$case] = json_decode($lines[$i], true, 512, JSON_THROW_ON_ERROR);
        }
    }

    /**
     * @dataProvider cases
     * @param array<string, string> $values
     */
    public function testTheProfileSignsAsTheSandboxDoes(string $name, string $endpoint, array $values): void
    {
        $profile = Profile::builtin($name);
        $cli = self::$signed[$this->dataName()];
        self::assertSame($name, $cli['profile']);
        self::assertSame($profile->stringToSign($endpoint, $values), $cli['string_to_sign']);
        self::assertSame($profile->signRequest(self::SECRET, $endpoint, $values), $cli['signature']);
        self::assertSame($profile->signatureHeader($endpoint), $cli['header']);
        self::assertSame($profile->header === null ? null : Profile::TOKEN_HEADER[$endpoint], $cli['token_header']);
    }
}
