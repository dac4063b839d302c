<?php
// CollectSigner.php as a signer for `collect-conformance vectors --signer "php examples/vectors-runners/php/signer-adapter.php"`:
// one JSON request per line on stdin, one JSON answer per line on stdout (vectors/README.md,
// "Driving your signer from the harness"). Diagnostics go to stderr only.
//   → {"id": "hello", "op": "hello", "protocol": 2}       (the handshake, when the kit sends one)
//   ← {"id": "hello", "protocol": 2, "supports": ["sign"], "implementation": {…}}
//   → {"id": "vectors.signature.17", "body": "<raw JSON body>", "secret": "…"}
//   ← {"id": "vectors.signature.17", "message": "…", "signature": "<hex>"} or {"id": …, "error": "…"}
require_once __DIR__ . '/CollectSigner.php';
require_once __DIR__ . '/../../line-protocol/php/LineProtocol.php';

function answer(array $request): array
{
    $id = $request['id'] ?? null;
    $op = $request['op'] ?? 'sign';
    if ($op === 'hello') {
        return LineProtocol::hello($id, ['sign'], 'CollectSigner.php (collect-conformance example)', '1.0.0');
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

LineProtocol::serve('answer');
