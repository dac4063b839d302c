<?php
// The collect-conformance golden vectors as PHPUnit 9 tests: copy this one file into your SDK's
// tests, point the three constants below at your SDK's functions, and run
//   phpunit VectorsTest.php
// One test per vector (a data provider per file), named `vectors.<file>.<tcId> <result> <flags>`.
// Judging (vectors/README.md): a `valid` vector passes when your output equals the suite's; an
// `invalid` one when your signer does not produce the presented signature; an `acceptable` one
// (the spec is silent) passes when it equals the suite's position or your code refuses the input
// (throws), and is otherwise SKIPPED with a reason that starts with WARN (a PHPUnit warning
// would fail the run): the spec allows it, the service may differ.
use PHPUnit\Framework\TestCase;

// ---- point these at your SDK ----------------------------------------------------------------
require_once __DIR__ . '/CollectSigner.php';

final class VectorsTest extends TestCase
{
    /** fn(string $rawJsonBody, string $secret): ['message' => ..., 'signature' => ...] or the hex signature alone; throws to refuse. */
    private const SIGNER = [CollectSigner::class, 'sign'];
    /** fn(string $callbackUrl, array $params): the URL the service requests; null skips callback-url.json. */
    private const COMPOSER = [CollectSigner::class, 'composeCallbackUrl'];
    /** fn(string $requestTarget): ['transaction_id' => ?string, 'status' => ?string, 'message' => ?string]; null skips callback-query.json. */
    private const PARSER = [CollectSigner::class, 'parseCallbackQuery'];
    // ----------------------------------------------------------------------------------------------

    /** The folder holding signature.json, callback-url.json and callback-query.json. */
    private static function vectorsDir(): string
    {
        return getenv('COLLECT_VECTORS_DIR') ?: __DIR__ . '/../../../vectors';
    }

    /** @var array<string, array<int, array>> the tests of each file by tcId */
    private static array $loaded = [];

    private static function tests(string $file): array
    {
        if (!isset(self::$loaded[$file])) {
            $path = self::vectorsDir() . "/$file.json";
            if (!is_file($path)) {
                throw new RuntimeException("no vector file at $path: set COLLECT_VECTORS_DIR to the folder holding signature.json");
            }
            $data = json_decode((string) file_get_contents($path), true, 512, JSON_THROW_ON_ERROR);
            self::$loaded[$file] = array_column($data['tests'], null, 'tcId');
        }
        return self::$loaded[$file];
    }

    /** One data set per vector: its name, and its file and tcId only (PHPUnit prints a data set's arguments). */
    private static function vectors(string $file, $callable, string $what): iterable
    {
        if ($callable === null) {
            yield "vectors.$file" => [$file, 0, "no $what given: set " . strtoupper($what) . " in VectorsTest.php to your SDK's function"];
            return;
        }
        foreach (self::tests($file) as $tcId => $t) {
            yield "vectors.$file.$tcId {$t['result']} " . implode(',', $t['flags']) => [$file, $tcId];
        }
    }

    public static function signatureVectors(): iterable
    {
        return self::vectors('signature', self::SIGNER, 'signer');
    }

    public static function callbackUrlVectors(): iterable
    {
        return self::vectors('callback-url', self::COMPOSER, 'composer');
    }

    public static function callbackQueryVectors(): iterable
    {
        return self::vectors('callback-query', self::PARSER, 'parser');
    }

    /** @dataProvider signatureVectors */
    public function testSignature(string $file, int $tcId, ?string $skip = null): void
    {
        $this->judge($file, $tcId, $skip, function (array $t): array {
            $got = call_user_func(self::SIGNER, $t['body'], $t['secret']);
            $signature = is_string($got) ? $got : $got['signature'];
            $message = is_string($got) ? null : ($got['message'] ?? null);
            $labels = self::labels($t, fn (array $a): bool => $a['signature'] === $signature || ($message !== null && $a['message'] === $message));
            $yourMessage = $message === null ? [] : ['your message:       ' . self::shown($message)];
            if ($t['result'] === 'invalid') {
                return [$signature !== $t['presentedSignature'], $labels, [
                    "your signer produced the presented signature $signature, which the service must refuse",
                    'expected message:   ' . self::shown($t['message']), ...$yourMessage,
                ]];
            }
            return [$signature === $t['signature'] && ($message === null || $message === $t['message']), $labels, [
                'expected message:   ' . self::shown($t['message']), ...$yourMessage,
                "expected signature: {$t['signature']}", "your signature:     $signature",
            ]];
        });
    }

    /** @dataProvider callbackUrlVectors */
    public function testCallbackUrl(string $file, int $tcId, ?string $skip = null): void
    {
        $this->judge($file, $tcId, $skip, function (array $t): array {
            $url = call_user_func(self::COMPOSER, $t['callbackUrl'], $t['params']);
            $labels = self::labels($t, fn (array $a): bool => $a['url'] === $url);
            return [$url === $t['url'], $labels, ['callback_url: ' . self::shown($t['callbackUrl']), 'expected: ' . self::shown($t['url']), 'yours:    ' . self::shown($url)]];
        });
    }

    /** @dataProvider callbackQueryVectors */
    public function testCallbackQuery(string $file, int $tcId, ?string $skip = null): void
    {
        $this->judge($file, $tcId, $skip, function (array $t): array {
            $found = call_user_func(self::PARSER, $t['requestTarget']);
            $three = fn (?array $o): array => [$o['transaction_id'] ?? null, $o['status'] ?? null, $o['message'] ?? null];
            $labels = self::labels($t, fn (array $a): bool => $three($a['expected']) === $three($found));
            return [$three($found) === $three($t['expected']), $labels, ['request target: ' . self::shown($t['requestTarget']), 'expected: ' . self::shown($t['expected']), 'yours:    ' . self::shown($found)]];
        });
    }

    /** Runs one vector: $check returns [same, labels of the alternatives it fits, evidence lines]. */
    private function judge(string $file, int $tcId, ?string $skip, callable $check): void
    {
        if ($skip !== null) {
            $this->markTestSkipped($skip);
        }
        $t = self::tests($file)[$tcId];
        try {
            [$same, $labels, $lines] = $check($t);
        } catch (Throwable $refused) {
            if ($t['result'] === 'acceptable') {
                $this->addToAssertionCount(1); // refusing the input is allowed where the spec is silent
                return;
            }
            $this->fail("{$t['comment']}: refused the input of a {$t['result']} vector: " . $refused->getMessage());
        }
        if ($same) {
            $this->addToAssertionCount(1);
            return;
        }
        $follows = $labels === [] ? 'follows no listed alternative' : 'follows `' . implode('`, `', $labels) . '`';
        $source = isset($t['source']) ? ", source: {$t['source']}" : '';
        $reason = implode("\n", ["{$t['comment']} ({$t['specRef']}$source): $follows", ...$lines]);
        if ($t['result'] === 'acceptable') {
            $this->markTestSkipped('WARN acceptable vector (the spec is silent): ' . str_replace("\n", '; ', $reason));
        }
        $this->fail($reason);
    }

    private static function labels(array $t, callable $fits): array
    {
        return array_values(array_map(fn (array $a): string => $a['label'], array_filter($t['alternatives'], $fits)));
    }

    private static function shown($value): string
    {
        return json_encode($value, JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE | JSON_INVALID_UTF8_SUBSTITUTE);
    }
}
