// The levels section of docs/positions.md: which cases are SHOULD, and why (each reason a
// sentence, kept as written).
export const LEVELS = `## Levels

\`MUST\` only where a sentence of the spec states the rule; \`SHOULD\` (a miss is WARN) where the
suite interprets. Eleven cases are SHOULD, each for a stated reason:

- \`receiver.outcome.unknown-status-lowercase\`: applying \`success\` after case-folding breaks no
  sentence;
- \`receiver.token.sent-twice\`: §6 rule 1 speaks of one header value;
- \`receiver.params.extra-params\`: §4.3 names exactly three parameters; tolerating more is a
  recommendation;
- \`service.auth.uppercase-signature\`: §5.1 says "hex-encode", no letter case;
- \`service.sandbox.leading-zeros-kept\`: §2.1 keeps numbers as text, but no sentence says how the
  whitelist compares them: a service that normalises phone numbers breaks none; its MUST half,
  the whitelisted number accepted as written, is its control and gives ERROR when it fails;
- \`service.callback.retries-stop-after-2xx\`: at-least-once allows repeats;
- on the client side \`client.collect.signature-lowercase\` (as \`uppercase-signature\`);
- \`client.collect.fields\`: §4.1 leaves open which fields are mandatory: all six, once each, is
  the suite's reading;
- \`client.answers.success-false\` and \`client.answers.error-code\`: §7 shows no body format for
  rejections;
- \`client.collect.amount-text-kept\`: §2.1 carries the amount as a string, its MUST half
  \`client.collect.amount-string\`; that the caller's text is kept, \`15.00\` not \`15\`, is the
  suite's position.

Every rule the spec states is \`MUST\`, including "retried with exponential back-off" (intervals
must grow), terminal states being final (duplicates never carry a different outcome), and the
token check of a receiver whose target file names a token. A deadline the target file sets
(\`replyDeadlineMs\`) is a \`MUST\` for that run. What the verdicts mean, and how a negative case
rests on its positive control, is in [reading a run](reports.md#what-a-verdict-rests-on).
`;
