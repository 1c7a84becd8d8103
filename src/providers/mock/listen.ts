// Binds a server to an ephemeral loopback port: the mock provider, and the bench's and tests' fake
// upstreams, all start and stop this way.
import type http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LoopbackServer {
  url: string;
  port: number;
  /** Drops open (keep-alive or streaming) connections and stops listening. */
  close(): Promise<void>;
}

export async function listenOnLoopback(server: http.Server): Promise<LoopbackServer> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
