// The listener's TLS material: a CA and a server certificate signed by it, for localhost,
// 127.0.0.1 and ::1 (selfsigned's defaults do not validate for an IP). Generated once per
// process, so an embedded service can be told to trust the CA before the listener starts.
// selfsigned (and its ASN.1 libraries) loads only when TLS material is first asked for: most runs
// never need it, and it is a noticeable part of the command's start-up.

export interface ListenerTls {
  /** PEM of the CA to trust for callbacks to the listener. */
  caCert: string;
  key: string;
  cert: string;
}

let memo: Promise<ListenerTls> | undefined;

export function listenerTls(): Promise<ListenerTls> {
  memo ??= makeListenerTls().catch((error: unknown) => {
    memo = undefined;
    throw error;
  });
  return memo;
}

async function makeListenerTls(): Promise<ListenerTls> {
  const { generate } = await import('selfsigned');
  const days = 7;
  const notAfterDate = new Date(Date.now() + days * 86_400_000);
  const ca = await generate([{ name: 'commonName', value: 'collect-conformance listener CA' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    notAfterDate,
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true },
    ],
  });
  const leaf = await generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    notAfterDate,
    ca: { key: ca.private, cert: ca.cert },
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [{ type: 2, value: 'localhost' }, { type: 7, ip: '127.0.0.1' }, { type: 7, ip: '::1' }],
      },
    ],
  });
  return { caCert: ca.cert, key: leaf.private, cert: leaf.cert };
}
