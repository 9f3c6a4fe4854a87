<?php

declare(strict_types=1);

// Maps Example\Deposit\Name to src/Name.php (Composer's PSR-4 does the same in a project).
spl_autoload_register(static function (string $class): void {
    $prefix = 'Example\\Deposit\\';
    if (str_starts_with($class, $prefix)) {
        require __DIR__ . '/' . substr($class, strlen($prefix)) . '.php';
    }
});
