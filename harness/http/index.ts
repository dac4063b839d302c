// Public face of the HTTP basics every side shares: the harness's client (time limits,
// exchanges with curl lines, redaction as it reads), the capped reader of answers, the one
// reader of request bodies, the curl builder, transport failures by kind, and what "2xx" is.
export {
  HttpClient, tokenHeader, TOKEN_HEADER, DEFAULT_TOKEN_ENV,
  type HttpClientOptions, type HttpCall, type HttpResult, type HttpAnswer, type HeaderSpec, type Throttling,
} from './client.ts';
export { readCapped, truncationNote, ANSWER_READ_LIMIT, type CappedBody } from './read.ts';
export { readBody, type BodyRead, type BodyLimits } from './body.ts';
export { curlCommand, shellWord, type CurlRequest, type CurlHeader, type CurlSecret } from './curl.ts';
export { describeError, failureCodeOf } from './failure.ts';
export { isSuccess } from './status.ts';
