// One translated generation request: client body → IR → upstream body, call, then the upstream's JSON
// or SSE answer → IR → the client's protocol. Each request gets its own decoder/encoder (their state).
import type { Response } from 'express';
import type { RequestContext } from '../../core/context.ts';
import type { TranslatorTools } from '../../core/plugin.ts';
import { GatewayError } from '../../errors/catalogue.ts';
import { CodecError, type Codec, type ResponseEncodeContext, type StreamEncoder } from '../../protocols/codec.ts';
import { createGeminiStreamEncoder } from '../../protocols/gemini/index.ts';
import { codecFor } from '../../protocols/index.ts';
import type { IRResponse } from '../../protocols/ir.ts';
import { decodeClientRequest, encodeForUpstream, type TranslateDeps } from './prepare.ts';
import { createSignatureRecorder, recordResponseSignatures } from './signatures.ts';
import { relayStream, type StreamPlan } from './stream.ts';
import { relayUpstreamError } from './upstream-error.ts';
import { callUpstream, generateUrl, readJson, upstreamHeaders, upstreamProtocolFor, type UpstreamProtocol, type UpstreamResponse } from './upstream.ts';
import { tokenUsage } from './usage.ts';

/** A response the gateway cannot read or re-express is the upstream's fault: 502, not the client's 400. */
function badUpstream(error: unknown, providerId: string): GatewayError {
  if (error instanceof GatewayError) return error;
  // A CodecError below 500 is a client-side limit (a feature the client's protocol cannot receive).
  if (error instanceof CodecError && error.status < 500) return new GatewayError('invalid_request', error.message, { status: error.status });
  const detail = error instanceof Error ? `: ${error.message}` : '';
  return new GatewayError('upstream_bad_response', `Provider "${providerId}" sent a response the gateway could not translate${detail}`, { cause: error });
}

function clientStreamEncoder(ctx: RequestContext, client: Codec, encodeContext: ResponseEncodeContext): { encoder: StreamEncoder; contentType: string } {
  if (ctx.protocol === 'gemini' && ctx.query.alt !== 'sse') {
    return { encoder: createGeminiStreamEncoder(encodeContext, 'json-array'), contentType: 'application/json' };
  }
  return { encoder: client.createStreamEncoder(encodeContext), contentType: 'text/event-stream' };
}

async function relayJson(
  ctx: RequestContext,
  res: Response,
  upstreamResponse: UpstreamResponse,
  codecs: { client: Codec; upstream: Codec; upstreamProtocol: UpstreamProtocol },
  encodeContext: ResponseEncodeContext,
  deps: TranslateDeps,
  providerId: string,
): Promise<void> {
  let answer: IRResponse;
  let body: Record<string, unknown>;
  try {
    answer = codecs.upstream.decodeResponse(await readJson(upstreamResponse.body));
    body = codecs.client.encodeResponse(answer, encodeContext);
  } catch (error) {
    if (ctx.signal.aborted) return;
    throw badUpstream(error, providerId);
  }
  if (codecs.upstreamProtocol === 'gemini') recordResponseSignatures(answer, deps.signatures);
  res.status(200);
  const usage = tokenUsage(answer.usage);
  ctx.response = { status: 200, headers: res.getHeaders(), streamed: false, ...(usage ? { usage } : {}) };
  res.json(body);
}

export async function handleGenerate(ctx: RequestContext, res: Response, tools: TranslatorTools, deps: TranslateDeps): Promise<void> {
  const provider = tools.provider;
  const upstreamProtocol = upstreamProtocolFor(provider.type);
  const codecs = { client: codecFor(ctx.protocol), upstream: codecFor(upstreamProtocol), upstreamProtocol };
  const ir = decodeClientRequest(ctx);
  const body = await encodeForUpstream(ctx, res, ir, upstreamProtocol, deps);
  ctx.upstream = {
    url: generateUrl(provider, upstreamProtocol, ctx.route!.target.model, ir.stream),
    headers: upstreamHeaders(provider, ir.stream ? 'text/event-stream' : 'application/json'),
    body,
  };
  ctx.logFields.translated = `${ctx.protocol}->${upstreamProtocol}`;
  await tools.beforeUpstream(ctx);
  const upstreamResponse = await callUpstream(ctx, provider);
  if (upstreamResponse.status < 200 || upstreamResponse.status >= 300) return relayUpstreamError(ctx, res, upstreamResponse, codecs.upstream);
  const encodeContext: ResponseEncodeContext = { request: ir, clientModel: ctx.model ?? ir.model };
  if (!ir.stream) return relayJson(ctx, res, upstreamResponse, codecs, encodeContext, deps, provider.id);
  const plan: StreamPlan = {
    ...clientStreamEncoder(ctx, codecs.client, encodeContext),
    decoder: codecs.upstream.createStreamDecoder(),
    ...(upstreamProtocol === 'gemini' ? { observe: createSignatureRecorder(deps.signatures) } : {}),
  };
  return relayStream(ctx, res, upstreamResponse.body, plan, deps.logger);
}
