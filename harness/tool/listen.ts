// Binding a server: resolves with its address once it listens, rejects with the bind's error (a
// port in use, an address this machine does not have) instead of an unhandled 'error' event.
import type { AddressInfo, Server } from 'node:net';

export function listenOn(server: Server, port: number, host: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server.address() as AddressInfo);
    });
  });
}

/** `http://host:port` of a bound address, an IPv6 host in brackets. */
export function originOf(address: AddressInfo, scheme: 'http' | 'https' = 'http'): string {
  const host = address.address.includes(':') ? `[${address.address}]` : address.address;
  return `${scheme}://${host}:${address.port}`;
}
