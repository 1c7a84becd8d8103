// Same-protocol fast path: http-proxy-middleware pipes the upstream response to the client untouched
// (SSE arrives chunk by chunk). The gateway only sets the target, headers and (rewritten) JSON body,
// observes usage as bytes flow by, and maps connection failures to protocol-shaped 502/504 errors.
import type { ClientRequest, IncomingMessage } from 'node:http';
import { format } from 'node:util';
import type { Request, Response } from 'express';
import { createProxyMiddleware } from 'http-proxy-middleware';
import type { Logger } from 'winston';
import type { RequestContext } from '../core/context.ts';
import { redactUrl } from '../config/redact.ts';
import { GatewayError } from '../errors/catalogue.ts';
import { isHopByHop } from './headers.ts';
import { createUsageTap } from './usage-tap.ts';
import { upstreamFailure } from './upstream-errors.ts';

interface InFlight {
  ctx: RequestContext;
  /** ctx.upstream.url, parsed on first use (by the router, inside the proxy) and reused by the path rewrite and Host header. */
  target?: URL;
  timeoutMs: number;
  settle: (error?: GatewayError) => void;
}

export type FastPath = (ctx: RequestContext, req: Request, res: Response, timeoutMs: number) => Promise<void>;

function writeJsonBody(proxyReq: ClientRequest, body: Record<string, unknown> | undefined): void {
  if (body === undefined) return;
  const data = JSON.stringify(body);
  proxyReq.setHeader('content-type', 'application/json');
  proxyReq.setHeader('content-length', Buffer.byteLength(data));
  proxyReq.write(data);
}

function targetOf(entry: InFlight): URL {
  entry.target ??= new URL(entry.ctx.upstream!.url);
  return entry.target;
}

/** Replace every header httpxy copied from the client with exactly the computed upstream headers. */
function applyUpstreamHeaders(proxyReq: ClientRequest, entry: InFlight): void {
  for (const name of proxyReq.getHeaderNames()) proxyReq.removeHeader(name);
  for (const [name, value] of Object.entries(entry.ctx.upstream!.headers)) proxyReq.setHeader(name, value);
  proxyReq.setHeader('host', targetOf(entry).host);
}

/** No `Connection:` tokens: saves isHopByHop a new Set per header. */
const NO_CONNECTION_TOKENS: ReadonlySet<string> = new Set();

function observeResponse(entry: InFlight, proxyRes: IncomingMessage, res: Response): void {
  const { ctx } = entry;
  for (const name of Object.keys(proxyRes.headers)) {
    // The body is piped untouched, so its length and encoding stay; connection-scoped headers and cookies go.
    if (isHopByHop(name, NO_CONNECTION_TOKENS) || name === 'set-cookie') delete proxyRes.headers[name];
  }
  const contentType = String(proxyRes.headers['content-type'] ?? '');
  const streamed = contentType.includes('text/event-stream') || ctx.stream;
  if (streamed) res.setHeader('x-accel-buffering', 'no');
  ctx.response = { status: proxyRes.statusCode ?? 502, headers: { ...proxyRes.headers }, streamed };
  const tap = createUsageTap(ctx.protocol, contentType);
  proxyRes.on('data', (chunk: Buffer) => {
    ctx.timings.firstByte ??= performance.now();
    tap.write(chunk);
  });
  proxyRes.once('end', () => {
    const usage = tap.finish();
    if (usage && ctx.response) ctx.response.usage = usage;
  });
}

export function createFastPath(logger: Logger): FastPath {
  const inFlight = new WeakMap<IncomingMessage, InFlight>();
  const entryOf = (req: IncomingMessage): InFlight => {
    const entry = inFlight.get(req);
    if (!entry?.ctx.upstream) throw new Error('fast path called without an upstream request');
    return entry;
  };
  // http-proxy-middleware logs every proxied request at info, printf-style with several arguments; those
  // lines are our debug lines. Asking first skips formatting a line the transport would drop anyway, and
  // every line is redacted: a Gemini `?key=` in a URL must never reach the log.
  const line = (args: unknown[]): string => redactUrl(format(...args));
  const hpmLogger = {
    info: (...args: unknown[]) => {
      if (logger.isDebugEnabled()) logger.debug(line(args));
    },
    warn: (...args: unknown[]) => logger.warn(line(args)),
    error: (...args: unknown[]) => logger.error(line(args)),
  };

  const middleware = createProxyMiddleware<Request, Response>({
    changeOrigin: true,
    xfwd: false,
    logger: hpmLogger,
    router: (req) => targetOf(entryOf(req)).origin,
    pathRewrite: (_path, req) => {
      const target = targetOf(entryOf(req));
      return target.pathname + target.search;
    },
    on: {
      proxyReq(proxyReq, req) {
        const entry = entryOf(req);
        entry.ctx.timings.upstreamStart = performance.now();
        applyUpstreamHeaders(proxyReq, entry);
        // Time to response headers: a silent upstream becomes a 504, not a hung client.
        const timer = setTimeout(() => proxyReq.destroy(Object.assign(new Error('upstream timeout'), { code: 'GATEWAY_TIMEOUT' })), entry.timeoutMs);
        proxyReq.once('response', () => clearTimeout(timer));
        proxyReq.once('close', () => clearTimeout(timer));
        writeJsonBody(proxyReq, entry.ctx.upstream!.body);
      },
      proxyRes(proxyRes, req, res) {
        observeResponse(entryOf(req), proxyRes, res);
      },
      error(error, req) {
        const entry = inFlight.get(req);
        if (!entry) return;
        entry.settle(upstreamFailure(error, entry.ctx.route?.provider.id ?? 'upstream'));
      },
    },
  });

  return (ctx, req, res, timeoutMs) =>
    new Promise<void>((resolve, reject) => {
      let settled = false;
      const settle = (error?: GatewayError): void => {
        if (settled) return;
        settled = true;
        if (error && !res.headersSent) reject(error);
        else {
          if (error) res.destroy();
          resolve();
        }
      };
      inFlight.set(req, { ctx, timeoutMs, settle });
      res.once('close', () => settle());
      middleware(req, res, (err?: unknown) => settle(err instanceof GatewayError ? err : upstreamFailure(err, 'upstream'))).catch(
        (err: unknown) => settle(upstreamFailure(err, 'upstream')),
      );
    });
}
