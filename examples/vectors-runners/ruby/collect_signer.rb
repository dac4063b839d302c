# A small, correct signer for the collect API (§5.1, §5.2) and the callback URL (§6), standard
# library only: the example vectors_test.rb runs against. Your SDK has its own; point the runner
# at it instead.
#
# It validates the body with JSON.parse and reads every value's text from the body itself (a
# number as written, a nested object or array as its raw JSON text): to_s would print 1e3 as
# 1000.0 and a hash as {"k"=>"v"}. Ruby compares strings by their bytes, which for UTF-8 is
# code-point order.
#
# COLLECT_SIGNER_FAULT switches on one fault of the signer, to see what a failing vector looks like:
#   body-order          keys left in the order of the body, not sorted
#   url-encoded-values  every value percent-encoded as JavaScript's encodeURIComponent does
#   python-ascii-only   a message with a non-ASCII character refused (str.encode('ascii'))
# and COLLECT_CALLBACK_FAULT one of the callback URL's composer or parser:
#   always-question-mark  the parameters appended with ? even after a query
#   plus-not-space        + left as it is in the query, not read as a space
require 'json'
require 'openssl'

module CollectSigner
  # A body this signer does not sign (allowed on `acceptable` vectors only).
  class Refused < StandardError; end

  CALLBACK_PARAMS = %w[transaction_id status message].freeze
  SPACE = " \t\r\n".b

  module_function

  # §5.1: { 'message' => canonical message, 'signature' => lower-case hex HMAC-SHA256 }.
  def sign(body, secret)
    fault = ENV.fetch('COLLECT_SIGNER_FAULT', '')
    pairs = body_pairs(body)
    pairs = pairs.sort_by { |key, _| key } unless fault == 'body-order'
    pairs = pairs.map { |key, value| [key, encode_uri_component(value)] } if fault == 'url-encoded-values'
    message = pairs.map { |key, value| "#{key}=#{value}" }.join('&')
    raise Refused, 'the message has no UTF-8 form' unless message.valid_encoding?
    raise Refused, 'the message is not ASCII' if fault == 'python-ascii-only' && !message.ascii_only?

    { 'message' => message, 'signature' => OpenSSL::HMAC.hexdigest('SHA256', secret, message) }
  end

  # The [key, text] pairs of the top-level object in body order; a repeated key keeps its first
  # place and its last value (a Hash keeps where a key first stood).
  def body_pairs(body)
    begin
      JSON.parse(body) # only to refuse what is not JSON; the values are read from the text below
    rescue JSON::ParserError => e
      raise Refused, "the body is not JSON: #{e.message}"
    end
    text = body.b # scanned by bytes: every character JSON's grammar needs is ASCII
    i = skip_space(text, 0)
    raise Refused, 'the body is not a JSON object' unless text[i] == '{'

    pairs = {}
    i = skip_space(text, i + 1)
    until text[i] == '}'
      key_end = value_end(text, i)
      key = JSON.parse(utf8(text.byteslice(i, key_end - i)))
      i = skip_space(text, skip_space(text, key_end) + 1) # past the ':'
      finish = value_end(text, i)
      raw = utf8(text.byteslice(i, finish - i))
      # A string is signed unquoted and unescaped; anything else (numbers, true, false, null,
      # nested objects and arrays) exactly as written in the body.
      pairs[key] = raw.start_with?('"') ? JSON.parse(raw) : raw
      i = skip_space(text, finish)
      i = skip_space(text, i + 1) if text[i] == ','
    end
    pairs.to_a
  end

  def utf8(bytes)
    bytes.dup.force_encoding(Encoding::UTF_8)
  end

  def skip_space(text, i)
    i += 1 while i < text.bytesize && SPACE.include?(text[i])
    i
  end

  # Where the JSON value starting at i ends (the text is known to be valid JSON).
  def value_end(text, i)
    depth = 0
    in_string = false
    j = i
    while j < text.bytesize
      c = text[j]
      if in_string
        if c == '\\'
          j += 1
        elsif c == '"'
          in_string = false
          return j + 1 if depth.zero?
        end
      elsif c == '"'
        in_string = true
      elsif c == '{' || c == '['
        depth += 1
      elsif c == '}' || c == ']'
        return j if depth.zero?

        depth -= 1
        return j + 1 if depth.zero?
      elsif depth.zero? && ", \t\r\n".include?(c)
        return j
      end
      j += 1
    end
    text.bytesize
  end

  def percent(value, keep)
    utf8(value.b.gsub(keep) { |m| format('%%%02X', m.ord) })
  end

  def encode_uri_component(value)
    percent(value, %r{[^A-Za-z0-9\-_.!~*'()]}n)
  end

  # application/x-www-form-urlencoded as WHATWG writes it: A-Z a-z 0-9 * - . _ kept, space as +.
  def form_encode(value)
    percent(value, /[^A-Za-z0-9*\-._ ]/n).tr(' ', '+')
  end

  # §6: the callback URL kept intact, the three parameters appended with ? or & before any #fragment.
  def compose_callback_url(callback_url, params)
    base, hash_sign, fragment = callback_url.partition('#')
    query = CALLBACK_PARAMS.map { |name| "#{name}=#{form_encode(params[name])}" }.join('&')
    q = base.index('?')
    joiner = if q.nil? || ENV['COLLECT_CALLBACK_FAULT'] == 'always-question-mark' then '?'
             elsif q == base.length - 1 || base.end_with?('&') then ''
             else '&'
             end
    base + joiner + query + hash_sign + fragment
  end

  # + as a space, %XX as a byte (a % without two hex digits stays), invalid UTF-8 as U+FFFD.
  def form_decode(text)
    text = text.tr('+', ' ') unless ENV['COLLECT_CALLBACK_FAULT'] == 'plus-not-space'
    utf8(text.b.gsub(/%([0-9A-Fa-f]{2})/n) { Regexp.last_match(1).hex.chr }).scrub("\uFFFD")
  end

  # Receiver side: the three parameters; the last occurrence of a name wins, nil when absent.
  def parse_callback_query(request_target)
    found = CALLBACK_PARAMS.to_h { |name| [name, nil] }
    query = request_target.partition('#').first.partition('?').last
    query.split('&').each do |part|
      next if part.empty?

      name, _, value = part.partition('=')
      name = form_decode(name)
      found[name] = form_decode(value) if found.key?(name)
    end
    found
  end
end
