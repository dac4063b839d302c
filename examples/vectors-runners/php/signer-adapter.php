<?php
// CollectSigner.php as a signer for `collect-conformance vectors --signer "php examples/vectors-runners/php/signer-adapter.php"`:
// one JSON request per line on stdin, one JSON answer per line on stdout (vectors/README.md,
// "Driving your signer from the harness"). Diagnostics go to stderr only.
//   → {"id": "hello", "op": "hello", "protocol": 2}       (the handshake, when the kit sends one)
//   ← {"id": "hello", "protocol": 2, "supports": ["sign"], "implementation": {…}}
//   → {"id": "vectors.signature.17", "body": "<raw JSON body>", "secret": "…"}
//   ← {"id": "vectors.signature.17", "message": "…", "signature": "<hex>"} or {"id": …, "error": "…"}
require_once __DIR__ . '/CollectSigner.php';

function answer(array $request): array
{
    $id = $request['id'] ?? null;
    $op = $request['op'] ?? 'sign';
    if ($op === 'hello') {
        return ['id' => $id, 'protocol' => 2, 'supports' => ['sign'],
            'implementation' => ['language' => 'php ' . PHP_MAJOR_VERSION . '.' . PHP_MINOR_VERSION, 'library' => 'CollectSigner.php (collect-conformance example)', 'version' => '1.0.0']];
    }
    if ($op !== 'sign') {
        return ['id' => $id, 'error' => "unknown op: $op"];
    }
    if (!is_string($request['body'] ?? null) || !is_string($request['secret'] ?? null)) {
        return ['id' => $id, 'error' => 'bad request line: body and secret must be strings'];
    }
    try {
        return ['id' => $id] + CollectSigner::sign($request['body'], $request['secret']);
    } catch (CollectSignerRefused $refused) {
        return ['id' => $id, 'error' => $refused->getMessage()];
    }
}

while (($line = fgets(STDIN)) !== false) {
    if (trim($line) === '') {
        continue;
    }
    $request = json_decode($line, true);
    $reply = is_array($request) ? answer($request) : ['id' => null, 'error' => 'bad request line: not a JSON object'];
    // JSON_INVALID_UTF8_SUBSTITUTE: the answer is always one line of valid JSON.
    fwrite(STDOUT, json_encode($reply, JSON_UNESCAPED_SLASHES | JSON_INVALID_UTF8_SUBSTITUTE) . "\n");
    fflush(STDOUT);
}
