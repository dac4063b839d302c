# collect_signer.rb as a signer for `collect-conformance vectors --signer "ruby examples/vectors-runners/ruby/signer_adapter.rb"`:
# one JSON request per line on stdin, one JSON answer per line on stdout (vectors/README.md,
# "Driving your signer from the harness"). Diagnostics go to stderr only.
#   → {"id": "hello", "op": "hello", "protocol": 2}       (the handshake, when the kit sends one)
#   ← {"id": "hello", "protocol": 2, "supports": ["sign"], "implementation": {…}}
#   → {"id": "vectors.signature.17", "body": "<raw JSON body>", "secret": "…"}
#   ← {"id": "vectors.signature.17", "message": "…", "signature": "<hex>"} or {"id": …, "error": "…"}
require_relative 'collect_signer'
require_relative '../../line-protocol/ruby/line_protocol'

def answer(request)
  id = request['id']
  case request.fetch('op', 'sign')
  when 'hello'
    LineProtocol.hello(id, supports: ['sign'], library: 'collect_signer.rb (collect-conformance example)', version: '1.0.0')
  when 'sign'
    return { 'id' => id, 'error' => 'bad request line: body and secret must be strings' } unless request['body'].is_a?(String) && request['secret'].is_a?(String)

    { 'id' => id }.merge(CollectSigner.sign(request['body'], request['secret']))
  else
    { 'id' => id, 'error' => "unknown op: #{request['op']}" }
  end
rescue CollectSigner::Refused => e
  { 'id' => id, 'error' => e.message }
end

LineProtocol.serve { |request| answer(request) }
