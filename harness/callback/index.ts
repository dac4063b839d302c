// Public face of callback URL composition (service side) and parsing (receiver side), §6.
export {
  composeCallbackUrl, encodeCallbackQuery, formEncode, CALLBACK_PARAM_NAMES,
  type CallbackParams, type CallbackStatus,
} from './compose.ts';
export { parseCallbackQuery, formDecode, queryOf, type ParsedCallbackQuery } from './parse.ts';
