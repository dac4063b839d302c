<?php
// The collect-conformance adapter for CollectClient.php: one JSON request per line on stdin,
// one JSON answer per line on stdout (the SDK adapter protocol, harness/sdk/README.md).
//
//   collect-conformance run --target examples/sdk-adapters/php/client.json
//
// It reads each line's `op` first: `hello` (the handshake, when the kit sends one), `collect`
// and `status`. The SDK's options come from the environment, as a Laravel config would:
// COLLECT_SDK_HTTP_ERRORS=false (answers returned, not thrown), COLLECT_SDK_BODY=form (a
// form_params body, which §5 does not allow: the kit says so), COLLECT_SDK_FAULT=php-string, and
// COLLECT_SDK_TIMEOUT_MS, the SDK's own time limit (default 2000 ms).
require_once __DIR__ . '/CollectClient.php';
require_once __DIR__ . '/../../line-protocol/php/LineProtocol.php';

function client(array $request): CollectClient
{
    $credentials = $request['credentials'];
    return new CollectClient([
        'base_uri' => $request['baseUrl'],
        'client_id' => $credentials['clientId'],
        'client_key' => $credentials['clientKey'],
        'secret_key' => $credentials['secretKey'],
        'timeout' => (getenv('COLLECT_SDK_TIMEOUT_MS') ?: 2000) / 1000,
        'http_errors' => getenv('COLLECT_SDK_HTTP_ERRORS') !== 'false',
        'body' => getenv('COLLECT_SDK_BODY') ?: 'json',
    ]);
}

function answer(array $request): array
{
    $id = $request['id'] ?? null;
    $op = $request['op'] ?? 'collect';
    if ($op === 'hello') {
        return LineProtocol::hello($id, ['collect', 'status'], 'CollectClient.php (collect-conformance example SDK)', CollectClient::VERSION);
    }
    try {
        if ($op === 'collect') {
            $response = client($request)->collect($request['fields']);
            if ($response->statusCode >= 500) {
                return ['id' => $id, 'error' => 'the service failed: ' . $response->detail()];
            }
            return ['id' => $id, 'outcome' => $response->successful() ? 'accepted' : 'rejected', 'detail' => $response->detail()];
        }
        if ($op === 'status') {
            $response = client($request)->transactionStatus($request['transaction_id']);
            if ($response->statusCode >= 500) {
                return ['id' => $id, 'error' => 'the service failed: ' . $response->detail()];
            }
            if (!$response->successful()) {
                return ['id' => $id, 'outcome' => 'rejected', 'detail' => $response->detail()];
            }
            $status = $response->transactionStatus();
            return $status === null
                ? ['id' => $id, 'error' => 'the status answer holds no status: ' . $response->detail()]
                : ['id' => $id, 'status' => $status, 'detail' => $response->detail()];
        }
        return ['id' => $id, 'error' => "unknown op: $op"];
    } catch (CollectClientException $refused) {
        return ['id' => $id, 'outcome' => 'rejected', 'detail' => $refused->getMessage()];
    } catch (CollectException $failed) {
        return ['id' => $id, 'error' => $failed->getMessage()];
    }
}

LineProtocol::serve('answer');
