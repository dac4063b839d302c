# The collect-conformance adapter for collect_sdk.rb: one JSON request per line on stdin, one
# JSON answer per line on stdout (the SDK adapter protocol, harness/sdk/README.md).
#
#   collect-conformance run --target examples/sdk-adapters/ruby/client.json
#
# It reads each line's `op` first: `hello` (the handshake, when the kit sends one), `collect`
# and `status`. COLLECT_SDK_TIMEOUT_MS sets the SDK's own time limit (default 2000 ms);
# COLLECT_SDK_FAULT=form-encoded switches on the SDK's fault.
require_relative 'collect_sdk'
require_relative '../../line-protocol/ruby/line_protocol'

def client(request)
  credentials = request['credentials']
  CollectSdk::Client.new(base_url: request['baseUrl'], client_id: credentials['clientId'],
                         client_key: credentials['clientKey'], secret_key: credentials['secretKey'],
                         timeout: Integer(ENV.fetch('COLLECT_SDK_TIMEOUT_MS', '2000')) / 1000.0)
end

def answer(request)
  id = request['id']
  case request.fetch('op', 'collect')
  when 'hello'
    LineProtocol.hello(id, supports: %w[collect status], library: 'collect_sdk.rb (collect-conformance example SDK)', version: CollectSdk::VERSION)
  when 'collect'
    result = client(request).collect(request['fields'])
    { 'id' => id, 'outcome' => result.accepted? ? 'accepted' : 'rejected', 'detail' => result.detail }
  when 'status'
    result = client(request).transaction_status(request['transaction_id'])
    if !result.accepted?
      { 'id' => id, 'outcome' => 'rejected', 'detail' => result.detail }
    elsif result.transaction_status.nil?
      { 'id' => id, 'error' => "the status answer holds no status: #{result.detail}" }
    else
      { 'id' => id, 'status' => result.transaction_status, 'detail' => result.detail }
    end
  else
    { 'id' => id, 'error' => "unknown op: #{request['op']}" }
  end
rescue CollectSdk::Error => e
  { 'id' => id, 'error' => e.message }
end

LineProtocol.serve { |request| answer(request) }
