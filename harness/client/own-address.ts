// This machine's own address towards the service: the source address the operating system picks
// for a connection to the base URL's host from the default source (no bound address, no proxy).
// A connected UDP socket learns it without sending a packet.
import { createSocket } from 'node:dgram';
import { lookup } from 'node:dns/promises';

/** Undefined when the host does not resolve or no route leads to it. */
export async function ownAddressTowards(baseUrl: string): Promise<string | undefined> {
  let host: string;
  let port: number;
  try {
    const url = new URL(baseUrl);
    host = url.hostname.replace(/^\[|\]$/g, '');
    port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
    const { address, family } = await lookup(host);
    const socket = createSocket(family === 6 ? 'udp6' : 'udp4');
    try {
      await new Promise<void>((resolve, reject) => {
        socket.once('error', reject);
        socket.connect(port, address, () => resolve());
      });
      return socket.address().address;
    } finally {
      socket.close();
    }
  } catch {
    return undefined;
  }
}
