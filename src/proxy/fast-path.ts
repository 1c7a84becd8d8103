// Same-protocol fast path: http-proxy-middleware pipes the upstream response to the client untouched
// (SSE arrives chunk by chunk). The gateway only sets the target, headers and (rewritten) JSON body,
// observes usage as bytes flow by, and maps connection failures to protocol-shaped 502/504 errors.
import type { ClientRequest, IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { format } from 'node:util';
import type { Request, Response } from 'express';
import { createProxyMiddleware, loggerPlugin, proxyEventsPlugin } from 'http-proxy-middleware';
import type { Logger } from 'winston';
import type { RequestContext } from '../core/context.ts';
import { redactUrl } from '../config/redact.ts';
import { GatewayError } from '../errors/catalogue.ts';
import { isHopByHop } from './headers.ts';
import { createUsageTap } from './usage-tap.ts';
import { upstreamFailure } from './upstream-errors.ts';

interface InFlight {
  ctx: RequestContext;
  /** ctx.upstream.url, parsed once (by the router, inside the proxy) and reused for the Host header. */
  target?: URL;
  timeoutMs: number;
  /** Time to response headers; cleared when they arrive or the request settles. */
  timer?: NodeJS.Timeout;
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

/** A silent upstream becomes a 504, not a hung client. */
function startTimer(entry: InFlight, proxyReq: ClientRequest): void {
  entry.timer = setTimeout(() => proxyReq.destroy(Object.assign(new Error('upstream timeout'), { code: 'GATEWAY_TIMEOUT' })), entry.timeoutMs);
}

/**
 * The upstream's response headers the client may see. The body is piped untouched, so its length and
 * encoding stay; connection-scoped headers and cookies go. Copied rather than deleted in place: deleting
 * properties turns the object into a slow dictionary that httpxy then walks.
 */
function clientHeaders(upstream: IncomingHttpHeaders): IncomingHttpHeaders {
  const headers: IncomingHttpHeaders = {};
  for (const name of Object.keys(upstream)) {
    if (!isHopByHop(name) && name !== 'set-cookie') headers[name] = upstream[name];
  }
  return headers;
}

function observeResponse(entry: InFlight, proxyRes: IncomingMessage, res: ServerResponse): void {
  const { ctx } = entry;
  clearTimeout(entry.timer);
  const headers = clientHeaders(proxyRes.headers);
  // httpxy copies proxyRes.headers to the client and adds its own Connection: give it a copy of ours.
  proxyRes.headers = { ...headers };
  const contentType = String(headers['content-type'] ?? '');
  const streamed = contentType.includes('text/event-stream') || ctx.stream;
  if (streamed) res.setHeader('x-accel-buffering', 'no');
  ctx.response = { status: proxyRes.statusCode ?? 502, headers, streamed };
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

/** The fast path's state rides on the request (not in a WeakMap, which V8's young-generation GC keeps alive: see app.ts). */
const IN_FLIGHT = Symbol('gateway.fastPath');
type Tracked = IncomingMessage & { [IN_FLIGHT]?: InFlight };
const inFlightOf = (req: IncomingMessage): InFlight | undefined => (req as Tracked)[IN_FLIGHT];

export function createFastPath(logger: Logger): FastPath {
  const entryOf = (req: IncomingMessage): InFlight => {
    const entry = inFlightOf(req);
    if (!entry?.ctx.upstream) throw new Error('fast path called without an upstream request');
    return entry;
  };
  // http-proxy-middleware logs problems, and with its logger plugin every proxied request at info,
  // printf-style with several arguments; those lines are our debug lines. Every line is redacted: a Gemini
  // `?key=` in a URL must never reach the log.
  const line = (args: unknown[]): string => redactUrl(format(...args));
  const hpmLogger = {
    info: (...args: unknown[]) => logger.debug(line(args)),
    warn: (...args: unknown[]) => logger.warn(line(args)),
    error: (...args: unknown[]) => logger.error(line(args)),
  };

  const middleware = createProxyMiddleware({
    changeOrigin: true,
    xfwd: false,
    logger: hpmLogger,
    // The default plugins cost a URL, listeners and a log line per request. Ours: the `on` handlers below,
    // and the per-request line only when the gateway logs at debug (decided at start-up). Errors are ours
    // (`on.error`), and httpxy itself destroys the upstream response when the client goes away.
    ejectPlugins: true,
    plugins: logger.isDebugEnabled() ? [proxyEventsPlugin, loggerPlugin] : [proxyEventsPlugin],
    // The router returns the whole upstream URL and the client's path is ignored: no path rewrite step.
    router: (req) => targetOf(entryOf(req)),
    ignorePath: true,
    on: {
      proxyReq(proxyReq, req) {
        const entry = entryOf(req);
        entry.ctx.timings.upstreamStart = performance.now();
        applyUpstreamHeaders(proxyReq, entry);
        startTimer(entry, proxyReq);
        writeJsonBody(proxyReq, entry.ctx.upstream!.body);
      },
      proxyRes(proxyRes, req, res) {
        observeResponse(entryOf(req), proxyRes, res);
      },
      error(error, req) {
        const entry = inFlightOf(req);
        if (!entry) return;
        entry.settle(upstreamFailure(error, entry.ctx.route?.provider.id ?? 'upstream'));
      },
    },
  });

  return (ctx, req, res, timeoutMs) =>
    new Promise<void>((resolve, reject) => {
      let settled = false;
      const entry: InFlight = { ctx, timeoutMs, settle };
      function settle(error?: GatewayError): void {
        if (settled) return;
        settled = true;
        clearTimeout(entry.timer);
        if (error && !res.headersSent) reject(error);
        else {
          if (error) res.destroy();
          resolve();
        }
      }
      (req as Tracked)[IN_FLIGHT] = entry;
      // The middleware resolves once the response is closed (finished or aborted); failures arrive first,
      // through `on.error` or `next`.
      middleware(req, res, (err?: unknown) => settle(err instanceof GatewayError ? err : upstreamFailure(err, 'upstream'))).then(
        () => settle(),
        (err: unknown) => settle(upstreamFailure(err, 'upstream')),
      );
    });
}
