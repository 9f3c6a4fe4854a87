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
http_response_code($_SERVER['REQUEST_METHOD'] === 'POST'
    ? $receiver->handle((string) file_get_contents('php://input'), $_SERVER['HTTP_X_SIGNATURE'] ?? null)
    : 405);
