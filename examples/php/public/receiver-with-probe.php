<?php

// The callback receiver with a balance probe reading the same ledger, for the callback fuzzer:
// POST /callback takes callbacks, GET /probe?order=<order> answers the shop's state and the
// kopecks credited. Several workers, so overlapping deliveries really run at the same time:
//   PHP_CLI_SERVER_WORKERS=4 php -S 127.0.0.1:3001 public/receiver-with-probe.php
//   npx deposit-sandbox check-callback http://127.0.0.1:3001/callback --probe http://127.0.0.1:3001/probe --runs 50 --seed 1
declare(strict_types=1);

require __DIR__ . '/../src/autoload.php';

use Example\Deposit\CallbackReceiver;
use Example\Deposit\Ledger;

$ledger = new Ledger(getenv('LEDGER_FILE') ?: sys_get_temp_dir() . '/deposit-ledger.json');
$path = parse_url($_SERVER['REQUEST_URI'] ?? '/', PHP_URL_PATH);

if ($_SERVER['REQUEST_METHOD'] === 'GET' && $path === '/probe') {
    header('Content-Type: application/json');
    echo json_encode($ledger->balance((string) ($_GET['order'] ?? '')), JSON_THROW_ON_ERROR);
    return;
}
if ($_SERVER['REQUEST_METHOD'] === 'POST' && $path === '/callback') {
    $receiver = new CallbackReceiver(getenv('MERCHANT_SECRET') ?: 'sandbox-secret-demo', $ledger);
    http_response_code($receiver->handle((string) file_get_contents('php://input'), $_SERVER['HTTP_X_SIGNATURE'] ?? null));
    return;
}
http_response_code(404);
