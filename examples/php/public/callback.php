<?php

// The callback_url endpoint, e.g. `php -S 127.0.0.1:8080 public/callback.php`.
declare(strict_types=1);

require __DIR__ . '/../src/autoload.php';

use Example\Deposit\CallbackReceiver;
use Example\Deposit\Ledger;

$receiver = new CallbackReceiver(
    getenv('MERCHANT_SECRET') ?: 'sandbox-secret-demo',
    new Ledger(getenv('LEDGER_FILE') ?: sys_get_temp_dir() . '/deposit-ledger.json'),
);
if ($_SERVER['REQUEST_METHOD'] !== 'POST') {
    http_response_code(405);
    return;
}
[$status, $answer] = $receiver->receive((string) file_get_contents('php://input'), getallheaders());
http_response_code($status);
echo $answer; // the acknowledgement the provider profile asks for (DEPOSIT_SANDBOX_PROFILE)
