# The collect-conformance golden vectors as minitest tests: copy this one file into your SDK's
# tests, point the three callables below at your SDK, and run
#   ruby vectors_test.rb
# One test per vector, named `test_vectors.<file>.<tcId> <result> <flags>`. Judging
# (vectors/README.md): a `valid` vector passes when your output equals the suite's; an `invalid`
# one when your signer does not produce the presented signature; an `acceptable` one (the spec
# is silent) passes when it equals the suite's position or your code refuses the input (raises),
# and is otherwise SKIPPED with a reason that starts with WARN: the spec allows it, the service
# may differ (`ruby vectors_test.rb -v` lists the skips).
require 'json'
require 'minitest/autorun'

# ---- point these at your SDK ------------------------------------------------------------------
require_relative 'collect_signer'
# (raw_json_body, secret) -> { 'message' => ..., 'signature' => ... } or the hex signature alone; raises to refuse.
SIGNER = CollectSigner.method(:sign)
# (callback_url, { 'transaction_id' =>, 'status' =>, 'message' => }) -> the URL the service requests; nil skips callback-url.json.
COMPOSER = CollectSigner.method(:compose_callback_url)
# (request_target) -> { 'transaction_id' =>, 'status' =>, 'message' => } (nil for an absent one); nil skips callback-query.json.
PARSER = CollectSigner.method(:parse_callback_query)
# The folder holding signature.json, callback-url.json and callback-query.json.
VECTORS = ENV['COLLECT_VECTORS_DIR'] || File.expand_path('../../../vectors', __dir__)
# -------------------------------------------------------------------------------------------------

class VectorsTest < Minitest::Test
  def self.vectors(file, callable, what, &check)
    if callable.nil?
      define_method("test_vectors.#{file}") { skip "no #{what} given: set #{what.upcase} in vectors_test.rb to your SDK's function" }
      return
    end
    path = File.join(VECTORS, "#{file}.json")
    raise "no vector file at #{path}: set COLLECT_VECTORS_DIR to the folder holding signature.json" unless File.file?(path)

    JSON.parse(File.read(path, encoding: 'UTF-8'))['tests'].each do |t|
      define_method("test_vectors.#{file}.#{t['tcId']} #{t['result']} #{t['flags'].join(',')}") { judge(t, &check) }
    end
  end

  # Runs one vector: the block returns [same, labels of the alternatives it fits, evidence lines].
  def judge(t)
    begin
      same, labels, lines = yield(t)
    rescue StandardError => e
      return pass if t['result'] == 'acceptable' # refusing the input is allowed where the spec is silent

      flunk "#{t['comment']}: refused the input of a #{t['result']} vector: #{e.message}"
    end
    return pass if same

    follows = labels.empty? ? 'follows no listed alternative' : "follows `#{labels.join('`, `')}`"
    source = t.key?('source') ? ", source: #{t['source']}" : ''
    reason = ["#{t['comment']} (#{t['specRef']}#{source}): #{follows}", *lines].join("\n")
    skip "WARN acceptable vector (the spec is silent): #{reason.gsub("\n", '; ')}" if t['result'] == 'acceptable'
    flunk reason
  end

  def self.shown(value)
    JSON.generate(value)
  end

  vectors('signature', SIGNER, 'signer') do |t|
    got = SIGNER.call(t['body'], t['secret'])
    signature = got.is_a?(String) ? got : got['signature']
    message = got.is_a?(String) ? nil : got['message']
    labels = t['alternatives'].select { |a| a['signature'] == signature || (message && a['message'] == message) }.map { |a| a['label'] }
    yours = message.nil? ? [] : ["your message:       #{shown(message)}"]
    if t['result'] == 'invalid'
      [signature != t['presentedSignature'], labels,
       ["your signer produced the presented signature #{signature}, which the service must refuse",
        "expected message:   #{shown(t['message'])}", *yours]]
    else
      [signature == t['signature'] && (message.nil? || message == t['message']), labels,
       ["expected message:   #{shown(t['message'])}", *yours, "expected signature: #{t['signature']}", "your signature:     #{signature}"]]
    end
  end

  vectors('callback-url', COMPOSER, 'composer') do |t|
    url = COMPOSER.call(t['callbackUrl'], t['params'])
    labels = t['alternatives'].select { |a| a['url'] == url }.map { |a| a['label'] }
    [url == t['url'], labels, ["callback_url: #{shown(t['callbackUrl'])}", "expected: #{shown(t['url'])}", "yours:    #{shown(url)}"]]
  end

  vectors('callback-query', PARSER, 'parser') do |t|
    found = PARSER.call(t['requestTarget'])
    three = ->(o) { %w[transaction_id status message].map { |k| (o || {})[k] } }
    labels = t['alternatives'].select { |a| three.call(a['expected']) == three.call(found) }.map { |a| a['label'] }
    [three.call(found) == three.call(t['expected']), labels,
     ["request target: #{shown(t['requestTarget'])}", "expected: #{shown(t['expected'])}", "yours:    #{shown(found)}"]]
  end

  def shown(value)
    self.class.shown(value)
  end
end
