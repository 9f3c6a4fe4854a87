<?php
// The balance probe in PHP: GET /probe?order=<order> answers the shop's state and the kopecks
// credited for that order. Run: php -S 127.0.0.1:3001 examples/probes/probe.php
$orders = ['order-1001' => ['state' => 'confirmed', 'credited_cents' => 31250]]; // your shop's data

$row = $orders[$_GET['order'] ?? ''] ?? ['state' => null, 'credited_cents' => 0];
header('Content-Type: application/json');
echo json_encode(['state' => $row['state'], 'credited_cents' => $row['credited_cents']]);
