// The upstream hop of the translated path: which protocol a provider type speaks, its URL and headers,
// and the call itself (global fetch, aborted by client disconnect, time limit to response headers).
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

/**
 * POSTs `ctx.upstream`. Rejects with a 502/504 GatewayError on connection failure or when the headers take
 * longer than `timeoutMs`; the returned body stays tied to `ctx.signal`, so a client disconnect aborts it.
 */
export async function callUpstream(ctx: RequestContext, provider: ProviderEndpoint): Promise<Response> {
  const upstream = ctx.upstream;
  if (!upstream) throw new Error('callUpstream needs ctx.upstream');
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(new DOMException('upstream response headers timed out', 'TimeoutError')), provider.timeoutMs);
  ctx.timings.upstreamStart = performance.now();
  try {
    return await fetch(upstream.url, {
      method: 'POST',
      headers: upstream.headers,
      ...(upstream.body === undefined ? {} : { body: JSON.stringify(upstream.body) }),
      signal: AbortSignal.any([ctx.signal, deadline.signal]),
    });
  } catch (error) {
    throw upstreamFailure(error, provider.id);
  } finally {
    clearTimeout(timer);
  }
}

/** Reads at most `maxBytes` of a body as text (error bodies: enough to explain, never unbounded). */
export async function readCapped(response: Response, maxBytes: number): Promise<string> {
  if (!response.body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = response.body.getReader();
  try {
    while (size < maxBytes) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return Buffer.concat(chunks).subarray(0, maxBytes).toString('utf8');
}

export function parseJsonOr(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
