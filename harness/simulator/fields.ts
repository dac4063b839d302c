// §2.1: the six fields of a collect request, their types, and the transaction_status body.
// Fields beyond the six are allowed (the spec does not forbid them) and are signed like the rest.
import type { RawMember, RawValue } from '../signing/index.ts';
import { Rejection } from './rejections.ts';

export interface CollectFields {
  amount: string;
  callbackUrl: string;
  clientId: number;
  customerNumber: string;
  networkCode: string;
  transactionId: string;
}

const DECIMAL = /^\d+(?:\.\d+)?$/;
const DIGITS = /^\d{1,32}$/;
const INTEGER = /^(?:0|[1-9]\d*)$/;

function field(members: readonly RawMember[], name: string): RawValue {
  // Duplicate keys were refused before this point, so the first match is the only one.
  for (const m of members) if (m.key === name) return m.value;
  throw new Rejection('MISSING_FIELD', `${name} is required`);
}

function text(members: readonly RawMember[], name: string, max: number): string {
  const value = field(members, name);
  if (value.kind !== 'string') throw new Rejection('INVALID_FIELD', `${name} must be a JSON string, not ${value.kind}`);
  if (value.value.length === 0 || value.value.length > max) {
    throw new Rejection('INVALID_FIELD', `${name} must be 1 to ${max} characters long`);
  }
  return value.value;
}

export function readClientId(members: readonly RawMember[]): number {
  const value = field(members, 'client_id');
  if (value.kind !== 'number' || !INTEGER.test(value.raw) || !Number.isSafeInteger(Number(value.raw))) {
    throw new Rejection('INVALID_FIELD', `client_id must be a JSON integer, not ${value.kind === 'number' ? value.raw : value.kind}`);
  }
  return Number(value.raw);
}

export function readCollectFields(members: readonly RawMember[]): CollectFields {
  const transactionId = text(members, 'transaction_id', 256);
  const amount = text(members, 'amount', 32);
  if (!DECIMAL.test(amount) || Number(amount) <= 0) {
    throw new Rejection('INVALID_FIELD', `amount must be a string holding a positive decimal number (like "10.00"), not ${JSON.stringify(amount)}`);
  }
  const clientId = readClientId(members);
  const customerNumber = text(members, 'customer_number', 32);
  if (!DIGITS.test(customerNumber)) {
    throw new Rejection('INVALID_FIELD', 'customer_number must be a string of digits (kept as text, leading zeros included)');
  }
  const networkCode = text(members, 'network_code', 32);
  const callbackUrl = text(members, 'callback_url', 2048);
  let url: URL;
  try {
    url = new URL(callbackUrl);
  } catch {
    throw new Rejection('INVALID_FIELD', 'callback_url must be an absolute http:// or https:// URL');
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '') {
    throw new Rejection('INVALID_FIELD', `callback_url must be an absolute http:// or https:// URL, not ${url.protocol}`);
  }
  return { amount, callbackUrl, clientId, customerNumber, networkCode, transactionId };
}

/** True when a callback URL uses https; the scheme is case-insensitive (RFC 3986 §3.1), so "HTTPS://" counts. */
export function isHttpsUrl(url: string): boolean {
  try {
    return new URL(url).protocol === 'https:';
  } catch {
    return false;
  }
}

export function readStatusFields(members: readonly RawMember[]): { transactionId: string; clientId: number } {
  return { transactionId: text(members, 'transaction_id', 256), clientId: readClientId(members) };
}
