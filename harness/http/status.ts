/** A 2xx status: success (RFC 9110 §15.3), the answer that ends a callback's deliveries (§4.3). */
export function isSuccess(status: number): boolean {
  return status >= 200 && status <= 299;
}
