# A small SDK for the collect operation (§4.1, §5) and the status query (§4.2, as
# collect-conformance takes it: docs/status.md), on Ruby's standard library (net/http, json,
# openssl).
#
#   client = CollectSdk::Client.new(base_url: 'https://…', client_id: 2, client_key: '…', secret_key: '…')
#   result = client.collect('amount' => '1.00', 'callback_url' => …)   # => CollectSdk::Result
#
# It signs what it sends: the body is encoded first, and each value is signed as its text in that
# body (a string as it stands, anything else as JSON.generate writes it), keys in Ruby's string
# order (bytes, so code-point order).
#
# COLLECT_SDK_FAULT=form-encoded switches on a common Ruby slip: the message built with
# URI.encode_www_form, which form-encodes every value (https%3A%2F%2F…), while the service signs
# the values as they stand.
require 'json'
require 'net/http'
require 'openssl'
require 'uri'

module CollectSdk
  VERSION = '1.0.0'
  STATUSES = %w[PENDING SUCCESS FAILED].freeze

  # The call's outcome is unknown: no answer, or the service failed.
  class Error < StandardError; end

  # What the service answered: its HTTP status and its JSON object ({} when it is not one).
  Result = Struct.new(:code, :json) do
    # 2xx, not "success": false, no error_code: the service took the request.
    def accepted?
      (200..299).cover?(code) && json['success'] != false && json['error_code'].nil?
    end

    # Read in either letter case: real clients of the service compare lower case (docs/positions.md).
    def transaction_status
      status = json['status'].is_a?(String) ? json['status'].upcase : nil
      STATUSES.include?(status) ? status : nil
    end

    def detail
      text = json['message'] || json['error_message']
      "HTTP #{code}#{text.is_a?(String) ? ": #{text}" : ''}"
    end
  end

  class Client
    def initialize(base_url:, client_id:, client_key:, secret_key:, timeout: 2)
      @base_url = base_url.chomp('/')
      @client_id = client_id
      @client_key = client_key
      @secret_key = secret_key
      @timeout = timeout
    end

    # POST /api/v1.0/collect/ with the caller's fields; raises Error when the outcome is unknown.
    def collect(fields)
      post('/api/v1.0/collect/', fields)
    end

    # POST /api/v1.0/transaction_status/ for one transaction.
    def transaction_status(transaction_id)
      post('/api/v1.0/transaction_status/', { 'transaction_id' => transaction_id, 'client_id' => @client_id })
    end

    private

    def post(path, fields)
      body = JSON.generate(fields)
      uri = URI(@base_url + path)
      request = Net::HTTP::Post.new(uri)
      request['Content-Type'] = 'application/json'
      request['Authorization'] = "HMAC #{@client_key}:#{OpenSSL::HMAC.hexdigest('SHA256', @secret_key, message(fields))}"
      request.body = body
      response = Net::HTTP.start(uri.host, uri.port, open_timeout: @timeout, read_timeout: @timeout) { |http| http.request(request) }
      result = Result.new(response.code.to_i, parse(response.body))
      raise Error, "the service failed: #{result.detail}" if result.code >= 500

      result
    rescue Net::OpenTimeout, Net::ReadTimeout, SystemCallError, IOError => e
      raise Error, "no answer from the service: #{e.message}"
    end

    # §5.1: key=value pairs in code-point order of the keys, joined by &, each value as its text in the body.
    def message(fields)
      pairs = fields.map { |key, value| [key.to_s, value.is_a?(String) ? value : JSON.generate(value)] }.sort_by(&:first)
      return URI.encode_www_form(pairs) if ENV['COLLECT_SDK_FAULT'] == 'form-encoded'

      pairs.map { |key, value| "#{key}=#{value}" }.join('&')
    end

    def parse(text)
      json = JSON.parse(text.to_s)
      json.is_a?(Hash) ? json : {}
    rescue JSON::ParserError
      {}
    end
  end
end
