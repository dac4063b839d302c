// Public face of callback URL composition (service side) and parsing (receiver side), §6.
export {
  composeCallbackUrl, encodeCallbackQuery, formEncode, separatorAfter, splitFragment, CALLBACK_PARAM_NAMES,
  type CallbackParams, type CallbackStatus,
} from './compose.ts';
export { parseCallbackQuery, splitQuery, formDecode, queryOf, type ParsedCallbackQuery } from './parse.ts';
export {
  COMPOSE_ALTERNATIVES, PARSE_ALTERNATIVES, composeAlternative, parseAlternative,
  type ComposeAlternative, type ParseAlternative,
} from './alternatives.ts';
