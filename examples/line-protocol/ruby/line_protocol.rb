# The line protocol both Ruby example adapters speak, written once: the SDK adapter's
# (examples/sdk-adapters/ruby/adapter.rb, harness/sdk/README.md) and the signer adapter's
# (examples/vectors-runners/ruby/signer_adapter.rb, vectors/README.md). One JSON request per line
# on stdin, one JSON answer per line on stdout; a line that is not a JSON object gets an error
# line. Copy it beside your adapter (docs/languages.md, "The handshake").
require 'json'

module LineProtocol
  module_function

  # The answer to the kit's handshake ({"op": "hello", "protocol": 2}): the ops the adapter
  # supports and what it wraps, shown in the report.
  def hello(id, supports:, library:, version:)
    { 'id' => id, 'protocol' => 2, 'supports' => supports,
      'implementation' => { 'language' => "ruby #{RUBY_VERSION[/\A\d+\.\d+/]}", 'library' => library, 'version' => version } }
  end

  # Answers each request line on stdin with the block's Hash, until stdin ends.
  def serve
    $stdout.sync = true
    $stdin.set_encoding(Encoding::UTF_8)
    $stdin.each_line do |line|
      next if line.strip.empty?

      request = begin
        JSON.parse(line)
      rescue JSON::ParserError
        nil
      end
      reply = request.is_a?(Hash) ? yield(request) : { 'id' => nil, 'error' => 'bad request line: not a JSON object' }
      # ascii_only: the answer stays one line of valid JSON whatever the message holds.
      $stdout.write(JSON.generate(reply, ascii_only: true) + "\n")
    end
  end
end
