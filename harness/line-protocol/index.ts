// Public face of the line protocols' shared machinery (one JSON object per line each way): the
// signer protocol (harness/vectors) and the SDK adapter protocol (harness/sdk) both drive their
// other end through it, as a command (`sh -c`) or as an in-process peer over a stream pair.
export { toLine, excerpt, parseObjectLine, type ParsedObjectLine } from './line.ts';
export type { LineEnd, LineEvent, LineExit } from './end.ts';
export { settlesWithin, stderrExcerpt } from './end.ts';
export { LineProcess, LINE_LIMIT, stopAllCommands, allowCommands, type LineProcessOptions } from './process.ts';
export { InProcessLineEnd, type LinePeer } from './in-process.ts';
export { LineDriver, linePolicy, GIVEN_UP, type LinePolicy, type LineDriverOptions, type LineFailure, type GivenUp, type LineWords, type ParsedAnswer, type Exchanged, type ExchangeOptions } from './driver.ts';
export { HELLO_ID, HELLO_LINE, HELLO_LIMIT_MS, PROTOCOL_VERSION, readHelloAnswer, describeGreeting, type Greeting, type Implementation } from './hello.ts';
