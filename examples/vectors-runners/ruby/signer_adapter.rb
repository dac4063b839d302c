# collect_signer.rb as a signer for `collect-conformance vectors --signer "ruby examples/vectors-runners/ruby/signer_adapter.rb"`:
# one JSON request per line on stdin, one JSON answer per line on stdout (vectors/README.md,
# "Driving your signer from the harness"). Diagnostics go to stderr only.
#   → {"id": "hello", "op": "hello", "protocol": 2}       (the handshake, when the kit sends one)
#   ← {"id": "hello", "protocol": 2, "supports": ["sign"], "implementation": {…}}
#   → {"id": "vectors.signature.17", "body": "<raw JSON body>", "secret": "…"}
#   ← {"id": "vectors.signature.17", "message": "…", "signature": "<hex>"} or {"id": …, "error": "…"}
require 'json'
require_relative 'collect_signer'

def answer(request)
  id = request['id']
  case request.fetch('op', 'sign')
  when 'hello'
    { 'id' => id, 'protocol' => 2, 'supports' => ['sign'],
      'implementation' => { 'language' => "ruby #{RUBY_VERSION[/\A\d+\.\d+/]}", 'library' => 'collect_signer.rb (collect-conformance example)', 'version' => '1.0.0' } }
  when 'sign'
    return { 'id' => id, 'error' => 'bad request line: body and secret must be strings' } unless request['body'].is_a?(String) && request['secret'].is_a?(String)

    { 'id' => id }.merge(CollectSigner.sign(request['body'], request['secret']))
  else
    { 'id' => id, 'error' => "unknown op: #{request['op']}" }
  end
rescue CollectSigner::Refused => e
  { 'id' => id, 'error' => e.message }
end

$stdout.sync = true
$stdin.set_encoding(Encoding::UTF_8)
$stdin.each_line do |line|
  next if line.strip.empty?

  request = begin
    JSON.parse(line)
  rescue JSON::ParserError
    nil
  end
  reply = request.is_a?(Hash) ? answer(request) : { 'id' => nil, 'error' => 'bad request line: not a JSON object' }
  # ascii_only: the answer stays one line of valid JSON whatever the message holds.
  $stdout.write(JSON.generate(reply, ascii_only: true) + "\n")
end
