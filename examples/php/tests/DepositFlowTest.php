<?php

declare(strict_types=1);

namespace Example\Deposit\Tests;

use Example\Deposit\DepositClient;
use Example\Deposit\DepositError;
use Example\Deposit\Ledger;
use Example\Deposit\Profile;
use PHPUnit\Framework\TestCase;

/**
 * The merchant flow against a sandbox the test starts: create (signature), read back, pay on
 * the hosted page, the signed callback reaches public/callback.php (served by `php -S`), and
 * the balance is credited once.
 */
final class DepositFlowTest extends TestCase
{
    private const MERCHANT = '6f1c2a9e-3b7d-4c52-9a1e-2d4b8f0c7e51'; // the bundled demo merchant
    private const SECRET = 'sandbox-secret-demo';
    /** Sent beside the signature under a profile whose signature has a header of its own. */
    private const TOKEN = 'sandbox-token-demo';

    /** @var list<resource> */
    private static array $processes = [];
    private static string $sandboxUrl;
    private static string $callbackUrl;
    private static string $ledgerFile;

    public static function setUpBeforeClass(): void
    {
        // DEPOSIT_SANDBOX_COMMAND replaces the command (e.g. "npx deposit-sandbox").
        $command = getenv('DEPOSIT_SANDBOX_COMMAND') ?: 'node ' . dirname(__DIR__, 3) . '/bin/deposit-sandbox.js';
        $env = array_filter(getenv(), static fn (string $name): bool => !str_starts_with($name, 'DEPOSIT_SANDBOX_') && $name !== 'PORT', ARRAY_FILTER_USE_KEY);
        // DEPOSIT_SANDBOX_PROFILE=hmac-sha512-base64 (or another built-in) runs the flow under that
        // provider profile: the sandbox starts with --profile, the client and the receiver follow it.
        $profile = Profile::fromEnv()->name;
        $line = self::start([...explode(' ', $command), '--port', '0', '--in-memory', '--auth', 'signature', '--profile', $profile], $env, 1);
        self::assertMatchesRegularExpression('/^deposit-sandbox listening on (\S+)/', $line);
        self::$sandboxUrl = explode(' ', trim($line))[3];

        self::$ledgerFile = tempnam(sys_get_temp_dir(), 'deposit-ledger-');
        self::$callbackUrl = self::startReceiver($profile, $env);
    }

    /**
     * Serves public/callback.php with `php -S`, following $profile; returns its callback URL.
     *
     * @param array<string, string> $env
     */
    private static function startReceiver(string $profile, array $env): string
    {
        $line = self::start([PHP_BINARY, '-S', '127.0.0.1:0', dirname(__DIR__) . '/public/callback.php'], ['LEDGER_FILE' => self::$ledgerFile, 'MERCHANT_SECRET' => self::SECRET, 'DEPOSIT_SANDBOX_PROFILE' => $profile] + $env, 2);
        self::assertMatchesRegularExpression('#\((http://127\.0\.0\.1:\d+)\) started#', $line);
        preg_match('#\((http://127\.0\.0\.1:\d+)\)#', $line, $match);
        return $match[1] . '/callbacks/deposit';
    }

    public static function tearDownAfterClass(): void
    {
        foreach (self::$processes as $process) {
            proc_terminate($process);
            proc_close($process);
        }
        self::$processes = [];
        @unlink(self::$ledgerFile);
    }

    /**
     * Starts a process and returns the first line it writes on `$fd` (1 stdout, 2 stderr).
     *
     * @param list<string> $command
     * @param array<string, string> $env
     */
    private static function start(array $command, array $env, int $fd): string
    {
        $spec = [0 => ['file', '/dev/null', 'r'], 1 => ['pipe', 'w'], 2 => ['pipe', 'w']];
        $process = proc_open($command, $spec, $pipes, null, $env);
        self::assertIsResource($process, 'could not start ' . implode(' ', $command));
        self::$processes[] = $process;
        $read = [$pipes[$fd]];
        $none = [];
        self::assertSame(1, stream_select($read, $none, $none, 30), implode(' ', $command) . ' wrote nothing within 30 s');
        return (string) fgets($pipes[$fd]);
    }

    /** @return array{status: int, body: string, location: string} */
    private static function http(string $method, string $url, ?string $body = null, array $headers = []): array
    {
        $curl = curl_init($url);
        curl_setopt_array($curl, [CURLOPT_CUSTOMREQUEST => $method, CURLOPT_RETURNTRANSFER => true, CURLOPT_TIMEOUT => 10, CURLOPT_HTTPHEADER => $headers]);
        if ($body !== null) {
            curl_setopt($curl, CURLOPT_POSTFIELDS, $body);
        }
        $answer = (string) curl_exec($curl);
        $result = ['status' => curl_getinfo($curl, CURLINFO_RESPONSE_CODE), 'body' => $answer, 'location' => (string) curl_getinfo($curl, CURLINFO_REDIRECT_URL)];
        curl_close($curl);
        return $result;
    }

    /** Waits (at most 10 s) until the ledger, changed by the callback endpoint, satisfies $condition. */
    private static function eventually(callable $condition, string $what): void
    {
        $deadline = microtime(true) + 10;
        while (!$condition()) {
            self::assertLessThan($deadline, microtime(true), "timed out waiting for {$what}");
            usleep(20_000);
        }
    }

    public function testSignaturesMatchTheDocumentedVectors(): void
    {
        $body = ['merchant' => self::MERCHANT, 'order' => 'order-1001', 'amount_cents' => 31250, 'amount_currency' => 'RUB', 'type' => 'any_bank',
            'customer' => 'customer-42', 'callback_url' => 'https://shop.example/callbacks/deposit', 'return_url' => 'https://shop.example/thanks'];
        self::assertSame('e0868e2bda73093a3f6e8ce9e647abd07f3ad08c764fadac8c29670ac2034692', DepositClient::sign(self::SECRET, DepositClient::createStringToSign($body)));
        $bare = ['merchant' => self::MERCHANT, 'order' => 'order-1002', 'amount_cents' => 31250, 'amount_currency' => 'RUB', 'type' => 'nspk'];
        self::assertSame('31250::RUB::::::' . self::MERCHANT . '::order-1002::::nspk', DepositClient::createStringToSign($bare));
        self::assertSame('79023940317975039deef5b850b859979a9eea265611847f71d5236cbf9762a5', DepositClient::sign(self::SECRET, self::MERCHANT . '::3f2a4b1c-5d6e-4f70-8a9b-0c1d2e3f4a5b'));
    }

    public function testCreatePayAndCreditOnce(): void
    {
        $client = new DepositClient(self::$sandboxUrl, self::MERCHANT, self::SECRET, token: self::TOKEN);
        $ledger = new Ledger(self::$ledgerFile);
        $order = 'php-' . bin2hex(random_bytes(8));

        $trade = $client->create($order, 31250, 'any_bank', ['customer' => 'customer-42', 'callback_url' => self::$callbackUrl, 'return_url' => 'https://shop.example/thanks']);
        self::assertSame('created', $trade['state']);
        self::assertSame($order, $trade['order']);
        self::assertSame($trade, $client->get($trade['id']));

        // What the payer does: open payment_data.url and submit its form ("I have paid").
        $page = self::http('GET', $trade['payment_data']['url']);
        self::assertSame(200, $page['status']);
        self::assertSame(1, preg_match('/<form[^>]*action="([^"]+)"/', $page['body'], $form));
        $paid = self::http('POST', self::$sandboxUrl . $form[1], '', ['Content-Type: application/x-www-form-urlencoded']);
        self::assertSame(303, $paid['status']);
        self::assertSame('https://shop.example/thanks', $paid['location']);

        self::eventually(static fn (): bool => $ledger->balanceCents() === 31250, 'the signed callback to credit the trade');
        self::assertSame('confirmed', $client->get($trade['id'])['state']);

        // The receiver acknowledged the callback as the profile asks: delivered at the first attempt.
        $callback = static fn (): array => json_decode(self::http('GET', self::$sandboxUrl . '/_sandbox/callbacks?trade=' . $trade['id'])['body'], true)['callbacks'][0];
        self::eventually(static fn (): bool => $callback()['status'] !== 'pending', 'the callback to be delivered');
        self::assertSame(['delivered', 1], [$callback()['status'], count($callback()['attempts'])]);

        // The provider may deliver a callback again: replay it; the balance stays the same.
        $events = json_decode(self::http('GET', self::$sandboxUrl . '/_sandbox/callbacks?trade=' . $trade['id'])['body'], true);
        self::assertSame(202, self::http('POST', self::$sandboxUrl . '/_sandbox/callbacks/' . $events['callbacks'][0]['id'] . '/replay')['status']);
        self::eventually(static fn (): bool => $ledger->deliveries($trade['id']) === 2, 'the replayed callback');
        self::assertSame(31250, $ledger->balanceCents());
    }

    public function testAForgedCallbackIsRefused(): void
    {
        $ledger = new Ledger(self::$ledgerFile);
        $before = $ledger->balanceCents();
        $forged = json_encode(['id' => 'forged-' . bin2hex(random_bytes(4)), 'state' => 'confirmed', 'amount_cents' => 100]);
        $answer = self::http('POST', self::$callbackUrl, $forged, ['Content-Type: application/json', 'X-Signature: ' . hash_hmac('sha256', $forged, 'wrong-secret')]);
        self::assertSame(401, $answer['status']);
        self::assertSame($before, $ledger->balanceCents());
    }

    public function testABadSignatureIsExplained(): void
    {
        $client = new DepositClient(self::$sandboxUrl, self::MERCHANT, 'not-the-secret', token: self::TOKEN);
        try {
            $client->create('php-' . bin2hex(random_bytes(8)), 5000, 'nspk');
            self::fail('a wrong secret was accepted');
        } catch (DepositError $refused) {
            self::assertSame(401, $refused->status);
            self::assertStringContainsStringIgnoringCase('string to sign', $refused->body);
        }
    }

    public function testALostCreateAnswerIsRecoveredWithTheSameOrder(): void
    {
        $client = new DepositClient(self::$sandboxUrl, self::MERCHANT, self::SECRET, token: self::TOKEN);
        $order = 'sbx-lost-php-' . bin2hex(random_bytes(8)); // saved, then no answer at all
        self::assertSame('no answer', self::createOutcome($client, $order));
        // The retry gets duplicate_order, which names the trade under the sandbox profile: no new order is needed.
        $trade = $client->createOrRecover($order, 31250, 'any_bank', [], 'php-' . bin2hex(random_bytes(8)));
        self::assertSame($order, $trade['order']);
        self::assertSame('created', $trade['state']);
    }

    public function testALostCreateAnswerIsRecoveredUnderTheStrictProfile(): void
    {
        // A sandbox under the strict provider profile: every sandbox-only helper off, so the 422
        // duplicate_order names no trade and callbacks carry no X-Sandbox-* headers.
        $command = getenv('DEPOSIT_SANDBOX_COMMAND') ?: 'node ' . dirname(__DIR__, 3) . '/bin/deposit-sandbox.js';
        $env = array_filter(getenv(), static fn (string $name): bool => !str_starts_with($name, 'DEPOSIT_SANDBOX_') && $name !== 'PORT', ARRAY_FILTER_USE_KEY);
        $line = self::start([...explode(' ', $command), '--port', '0', '--in-memory', '--auth', 'signature', '--profile', 'strict'], $env, 1);
        self::assertMatchesRegularExpression('/^deposit-sandbox listening on (\S+)/', $line);
        $strictUrl = explode(' ', trim($line))[3];

        $client = new DepositClient($strictUrl, self::MERCHANT, self::SECRET, profile: Profile::builtin('strict'));
        $ledger = new Ledger(self::$ledgerFile);
        $order = 'sbx-lost-php-' . bin2hex(random_bytes(8));
        $optional = ['callback_url' => self::startReceiver('strict', $env)];
        self::assertSame('no answer', self::createOutcome($client, $order, $optional));
        try {
            $client->create($order, 31250, 'any_bank', $optional);
            self::fail('the order was accepted twice');
        } catch (DepositError $taken) { // saved, but the error does not say which trade
            self::assertSame(422, $taken->status);
            self::assertStringContainsString('"duplicate_order"', $taken->body);
            self::assertStringNotContainsString('(id ', $taken->body);
        }

        $newOrder = 'php-' . bin2hex(random_bytes(8));
        $trade = $client->createOrRecover($order, 31250, 'any_bank', $optional, $newOrder);
        self::assertSame($newOrder, $trade['order']);
        self::assertSame('created', $trade['state']);
        self::assertSame($trade, $client->get($trade['id']));

        // The first trade is never paid, so the provider ends it (here the sandbox's admin API plays
        // the provider): its callback carries its order and id, and the receiver learns the trade.
        $listed = json_decode(self::http('GET', $strictUrl . '/_sandbox/trades?order=' . rawurlencode($order))['body'], true);
        $lostId = $listed['trades'][0]['id'];
        self::assertSame(200, self::http('POST', "{$strictUrl}/_sandbox/trades/{$lostId}/transition", '{"state":"expired"}', ['Content-Type: application/json'])['status']);
        self::eventually(static fn (): bool => $ledger->balance($order)['state'] === 'expired', 'the callback of the lost order');
        self::assertSame(['state' => 'expired', 'credited_cents' => 0], $ledger->balance($order));
        self::assertSame(1, $ledger->deliveries($lostId));
    }

    /**
     * What one create of $order got: "no answer" when the connection closed without one.
     *
     * @param array<string, string> $optional
     */
    private static function createOutcome(DepositClient $client, string $order, array $optional = []): string
    {
        try {
            $client->create($order, 31250, 'any_bank', $optional);
            return 'answered';
        } catch (DepositError $unexpected) {
            return "answered {$unexpected->status}";
        } catch (\RuntimeException $noAnswer) {
            return 'no answer'; // the connection closed without an answer
        }
    }
}
