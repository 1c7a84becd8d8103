// The floor for a Node reverse proxy (a bench service, run in its own process): node:http in, node:http
// out over a keep-alive agent, bodies piped both ways, nothing parsed. The only work beyond piping is
// dropping connection-scoped headers (RFC 9110 §7.6.1), which any correct proxy must do.
import http from 'node:http';
import type { StartedService } from './service-protocol.ts';
import { listenOnLoopback } from '../src/providers/mock/listen.ts';

export interface ReferenceProxyOptions {
  /** Upstream root, e.g. http://127.0.0.1:4000; the request path is kept as is. */
  target: string;
}

const HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade'];

function withoutHopByHop(headers: http.IncomingHttpHeaders): http.IncomingHttpHeaders {
  const out = { ...headers };
  for (const name of HOP_BY_HOP) delete out[name];
  return out;
}

export async function start(options: ReferenceProxyOptions): Promise<StartedService> {
  const target = new URL(options.target);
  // The same pool settings as httpxy's default agent, which the gateway's fast path uses.
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256, maxFreeSockets: 64 });
  const server = http.createServer((req, res) => {
    const outgoing = http.request(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: { ...withoutHopByHop(req.headers), host: target.host },
        agent,
      },
      (upstream) => {
        res.writeHead(upstream.statusCode ?? 502, withoutHopByHop(upstream.headers));
        upstream.pipe(res);
      },
    );
    outgoing.on('error', () => {
      if (res.headersSent) res.destroy();
      else res.writeHead(502, { 'content-type': 'application/json' }).end('{"error":{"message":"upstream unreachable"}}');
    });
    res.once('close', () => {
      if (!res.writableFinished) outgoing.destroy();
    });
    req.pipe(outgoing);
  });
  server.keepAliveTimeout = 65_000;
  const listening = await listenOnLoopback(server);
  return {
    url: listening.url,
    close: async () => {
      agent.destroy();
      await listening.close();
    },
  };
}
