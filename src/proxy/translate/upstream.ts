// The upstream hop of the translated path: which protocol a provider type speaks, its URL and headers,
// and the call itself (aborted by client disconnect, time limit to response headers).
import http, { type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { ProviderType } from '../../config/types.ts';
import type { RequestContext } from '../../core/context.ts';
import type { ProviderEndpoint } from '../../core/provider-api.ts';
import type { ClientProtocol } from '../../protocols/ir.ts';
import { upstreamFailure } from '../upstream-errors.ts';

/** The protocols the translator calls upstreams with (Responses is only ever passed through natively). */
export type UpstreamProtocol = Extract<ClientProtocol, 'chat' | 'messages' | 'gemini'>;

/** OpenAI-type (and any OpenAI-compatible server) → Chat Completions, the API they all share. */
export function upstreamProtocolFor(type: ProviderType): UpstreamProtocol {
  switch (type) {
    case 'anthropic':
      return 'messages';
    case 'gemini':
      return 'gemini';
    case 'openai':
    case 'mock':
      return 'chat';
  }
}

export function generateUrl(provider: ProviderEndpoint, protocol: UpstreamProtocol, model: string, stream: boolean): string {
  switch (protocol) {
    case 'chat':
      return provider.url('chat', model);
    case 'messages':
      return provider.url('messages', model);
    case 'gemini':
      return stream ? provider.url('gemini_stream', model, { streamSse: true }) : provider.url('gemini_generate', model);
  }
}

/** Only the provider's own credentials travel upstream; nothing from the client's headers. */
export function upstreamHeaders(provider: ProviderEndpoint, accept: 'application/json' | 'text/event-stream'): Record<string, string> {
  return { 'content-type': 'application/json', accept, ...provider.authHeaders() };
}

export interface UpstreamResponse {
  status: number;
  headers: IncomingHttpHeaders;
  /** The body, chunk by chunk; destroyed (socket closed) when the client disconnects or the reader stops early. */
  body: IncomingMessage;
}

/**
 * POSTs `ctx.upstream` over node:http(s) with the default keep-alive agents (the same transport as the
 * fast path; global fetch measured ~300 µs more CPU per call). Rejects with a 502/504 GatewayError on
 * connection failure or when the response headers take longer than the provider's `timeoutMs`. The
 * request is bound to `ctx.signal`, so a client disconnect also aborts a body still being read.
 */
export function callUpstream(ctx: RequestContext, provider: ProviderEndpoint): Promise<UpstreamResponse> {
  const upstream = ctx.upstream;
  if (!upstream) return Promise.reject(new Error('callUpstream needs ctx.upstream'));
  const url = new URL(upstream.url);
  const payload = upstream.body === undefined ? undefined : JSON.stringify(upstream.body);
  const headers = payload === undefined ? upstream.headers : { ...upstream.headers, 'content-length': String(Buffer.byteLength(payload)) };
  ctx.timings.upstreamStart = performance.now();
  return new Promise((resolve, reject) => {
    const req = (url.protocol === 'https:' ? https : http).request(url, { method: 'POST', headers, signal: ctx.signal });
    const timeout = Object.assign(new Error('upstream response headers timed out'), { code: 'GATEWAY_TIMEOUT' });
    const timer = setTimeout(() => req.destroy(timeout), provider.timeoutMs);
    req.once('response', (res) => {
      clearTimeout(timer);
      resolve({ status: res.statusCode ?? 502, headers: res.headers, body: res });
    });
    req.once('error', (error) => {
      clearTimeout(timer);
      reject(upstreamFailure(error, provider.id));
    });
    req.end(payload);
  });
}

/** Reads at most `maxBytes` of a body as text (error bodies: enough to explain, never unbounded). */
export async function readCapped(body: IncomingMessage, maxBytes: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const buffer = chunk as Buffer;
    chunks.push(buffer);
    size += buffer.length;
    if (size >= maxBytes) break;
  }
  return Buffer.concat(chunks).subarray(0, maxBytes).toString('utf8');
}

/** A whole JSON body (successful upstream answers). */
export async function readJson(body: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
}

export function parseJsonOr(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
