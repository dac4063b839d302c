<?php
// The line protocol both PHP example adapters speak, written once: the SDK adapter's
// (examples/sdk-adapters/php/adapter.php, harness/sdk/README.md) and the signer adapter's
// (examples/vectors-runners/php/signer-adapter.php, vectors/README.md). One JSON request per line
// on STDIN, one JSON answer per line on STDOUT; a line that is not a JSON object gets an error
// line. Copy it beside your adapter (docs/languages.md, "The handshake").
final class LineProtocol
{
    /** The answer to the kit's handshake ({"op": "hello", "protocol": 2}): the ops the adapter supports and what it wraps, shown in the report. */
    public static function hello($id, array $supports, string $library, string $version): array
    {
        return ['id' => $id, 'protocol' => 2, 'supports' => $supports,
            'implementation' => ['language' => 'php ' . PHP_MAJOR_VERSION . '.' . PHP_MINOR_VERSION, 'library' => $library, 'version' => $version]];
    }

    /** Answers each request line on STDIN with $answer's array, until STDIN ends. */
    public static function serve(callable $answer): void
    {
        while (($line = fgets(STDIN)) !== false) {
            if (trim($line) === '') {
                continue;
            }
            // Decoded to objects first: a JSON array is an array in PHP too, and not a request.
            $reply = json_decode($line) instanceof stdClass ? $answer(json_decode($line, true)) : ['id' => null, 'error' => 'bad request line: not a JSON object'];
            // JSON_INVALID_UTF8_SUBSTITUTE: the answer is always one line of valid JSON.
            fwrite(STDOUT, json_encode($reply, JSON_UNESCAPED_SLASHES | JSON_INVALID_UTF8_SUBSTITUTE) . "\n");
            fflush(STDOUT);
        }
    }
}
