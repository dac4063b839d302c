// §2.1: the collect request body, written as raw JSON text with its keys in a deliberately
// non-sorted order. A verifier must sort (§5.1 step 2); a body that happens to be sorted would
// hide a verifier that signs in body order.

/** The six fields of §2.1. `client_id` is an integer; every other value is a string. */
export interface CollectFields {
  amount: string;
  callback_url: string;
  client_id: number;
  customer_number: string;
  network_code: string;
  transaction_id: string;
}

export type CollectFieldName = keyof CollectFields;

export const COLLECT_FIELD_NAMES: readonly CollectFieldName[] = [
  'amount', 'callback_url', 'client_id', 'customer_number', 'network_code', 'transaction_id',
];

/** Neither ascending nor descending: a body-order verifier and a sorting one disagree on it. */
export const UNSORTED_ORDER: readonly CollectFieldName[] = [
  'transaction_id', 'customer_number', 'amount', 'network_code', 'callback_url', 'client_id',
];

/** Descending order, the body furthest from sorted. */
export const REVERSED_ORDER: readonly CollectFieldName[] = [...COLLECT_FIELD_NAMES].reverse();

/** A body as members in the order they are written; values are JSON values. */
export type BodyMembers = Array<[key: string, value: unknown]>;

export function membersOf(fields: CollectFields, order: readonly CollectFieldName[] = UNSORTED_ORDER): BodyMembers {
  const seen = new Set(order);
  const members: BodyMembers = order.map((name) => [name, fields[name]]);
  // Fields the order forgot still go in, at the end, so no field is lost silently.
  for (const name of COLLECT_FIELD_NAMES) if (!seen.has(name)) members.push([name, fields[name]]);
  return members;
}

/** Raw JSON text of the members, in their order (JSON.stringify would keep insertion order too,
 * but writing it out keeps duplicate keys possible and the order explicit). */
export function writeBody(members: BodyMembers): string {
  return '{' + members.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(',') + '}';
}
