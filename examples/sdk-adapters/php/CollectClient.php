<?php
// A small SDK for the collect operation (§4.1, §5) and the status query (§4.2, as
// collect-conformance takes it: docs/status.md), written the way Laravel packages write theirs
// over Guzzle (options array, `json` or `form_params` body, `http_errors`, exceptions that carry
// the response), but on PHP's own HTTP streams: php-cli and nothing else.
//
//   $client = new CollectClient(['base_uri' => 'https://…', 'client_id' => 2, 'client_key' => '…',
//       'secret_key' => '…', 'timeout' => 2.0, 'http_errors' => true, 'body' => 'json']);
//   $response = $client->collect(['amount' => '1.00', 'callback_url' => …]);
//
// It signs what it sends: the body is encoded first, and each value is signed as its text in
// that body (a string as it stands, anything else as json_encode() writes it), keys in byte
// order (strcmp: a PHP array key "10" is an integer to ksort()).
//
// COLLECT_SDK_FAULT=php-string switches on the classic PHP bug: the message built as "$key=$value",
// PHP's string conversion, which prints floats to 14 significant digits (15.0 as 15, 3.3000000000000003
// as 3.3) while json_encode() sends them in full: it signs one text and sends another.

/** Like GuzzleHttp\Exception\TransferException: the call failed. */
class CollectException extends RuntimeException
{
}

/** Like GuzzleHttp\Exception\ConnectException: no answer (refused, timed out). */
final class CollectConnectException extends CollectException
{
}

/** Like GuzzleHttp\Exception\RequestException: an answer with an error status, when http_errors is on. */
class CollectRequestException extends CollectException
{
    public CollectResponse $response;

    public function __construct(string $message, CollectResponse $response)
    {
        parent::__construct($message);
        $this->response = $response;
    }
}

/** A 4xx answer (GuzzleHttp\Exception\ClientException). */
final class CollectClientException extends CollectRequestException
{
}

/** A 5xx answer (GuzzleHttp\Exception\ServerException). */
final class CollectServerException extends CollectRequestException
{
}

final class CollectResponse
{
    public const STATUSES = ['PENDING', 'SUCCESS', 'FAILED'];

    public function __construct(public readonly int $statusCode, public readonly string $body)
    {
    }

    /** The answer's JSON object, or [] when it is not one. */
    public function json(): array
    {
        $decoded = json_decode($this->body, true);
        return is_array($decoded) ? $decoded : [];
    }

    /** 2xx, not `"success": false`, no `error_code`: the service took the request. */
    public function successful(): bool
    {
        $json = $this->json();
        return $this->statusCode >= 200 && $this->statusCode < 300
            && ($json['success'] ?? null) !== false && !isset($json['error_code']);
    }

    /**
     * The transaction status of a status answer (PENDING, SUCCESS, FAILED), or null. Read in
     * either letter case: real clients of the service compare lower case (docs/positions.md).
     */
    public function transactionStatus(): ?string
    {
        $status = $this->json()['status'] ?? null;
        $status = is_string($status) ? strtoupper($status) : null;
        return in_array($status, self::STATUSES, true) ? $status : null;
    }

    public function detail(): string
    {
        $json = $this->json();
        $text = $json['message'] ?? $json['error_message'] ?? null;
        return "HTTP {$this->statusCode}" . (is_string($text) ? ": $text" : '');
    }
}

final class CollectClient
{
    public const VERSION = '1.0.0';
    private const JSON_FLAGS = JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE | JSON_PRESERVE_ZERO_FRACTION | JSON_THROW_ON_ERROR;

    private array $config;

    public function __construct(array $config)
    {
        foreach (['base_uri', 'client_id', 'client_key', 'secret_key'] as $key) {
            if (!isset($config[$key])) {
                throw new InvalidArgumentException("CollectClient: the option '$key' is missing");
            }
        }
        $this->config = $config + ['timeout' => 2.0, 'http_errors' => true, 'body' => 'json'];
        if (!in_array($this->config['body'], ['json', 'form'], true)) {
            throw new InvalidArgumentException("CollectClient: the option 'body' is 'json' or 'form', not '{$this->config['body']}'");
        }
    }

    /** POST /api/v1.0/collect/ with the caller's fields. */
    public function collect(array $fields): CollectResponse
    {
        return $this->post('/api/v1.0/collect/', $fields);
    }

    /** POST /api/v1.0/transaction_status/ for one transaction. */
    public function transactionStatus(string $transactionId): CollectResponse
    {
        return $this->post('/api/v1.0/transaction_status/', ['transaction_id' => $transactionId, 'client_id' => $this->config['client_id']]);
    }

    private function post(string $path, array $fields): CollectResponse
    {
        $form = $this->config['body'] === 'form';
        $body = $form ? http_build_query($fields) : json_encode((object) $fields, self::JSON_FLAGS);
        $signature = hash_hmac('sha256', $this->message($fields), (string) $this->config['secret_key']);
        $context = stream_context_create(['http' => [
            'method' => 'POST',
            'header' => implode("\r\n", [
                'Content-Type: ' . ($form ? 'application/x-www-form-urlencoded' : 'application/json'),
                'Accept: application/json',
                "Authorization: HMAC {$this->config['client_key']}:$signature",
            ]),
            'content' => $body,
            'timeout' => (float) $this->config['timeout'],
            'ignore_errors' => true, // read 4xx and 5xx answers too
        ]]);
        $url = rtrim((string) $this->config['base_uri'], '/') . $path;
        $raw = @file_get_contents($url, false, $context);
        if ($raw === false || !isset($http_response_header[0]) || !preg_match('#^HTTP/\S+\s+(\d{3})#', $http_response_header[0], $m)) {
            $why = error_get_last()['message'] ?? 'no answer';
            throw new CollectConnectException("no answer from $url: $why");
        }
        $response = new CollectResponse((int) $m[1], $raw);
        if ($this->config['http_errors'] && $response->statusCode >= 400) {
            $class = $response->statusCode >= 500 ? CollectServerException::class : CollectClientException::class;
            throw new $class($response->detail(), $response);
        }
        return $response;
    }

    /** §5.1: key=value pairs in byte order of the keys, joined by &, each value as its text in the body. */
    private function message(array $fields): string
    {
        $pairs = [];
        foreach ($fields as $key => $value) {
            $pairs[] = [(string) $key, $value];
        }
        usort($pairs, static fn (array $a, array $b): int => strcmp($a[0], $b[0]));
        $fault = getenv('COLLECT_SDK_FAULT') === 'php-string';
        $parts = [];
        foreach ($pairs as [$key, $value]) {
            $text = is_string($value) ? $value : json_encode($value, self::JSON_FLAGS);
            $parts[] = $fault && is_scalar($value) ? "$key=$value" : "$key=$text";
        }
        return implode('&', $parts);
    }
}
