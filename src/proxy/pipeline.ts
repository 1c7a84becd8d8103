// The generation request path: hooks → body check → route → same-protocol fast path, or the installed
// translator for cross-protocol targets. Everything that fails becomes a protocol-shaped error upstream.
import type { Request, Response } from 'express';
import type { GatewayConfig } from '../config/types.ts';
import type { RequestContext, UpstreamRequest } from '../core/context.ts';
import type { HookRegistry } from '../core/hooks.ts';
import type { Translator } from '../core/plugin.ts';
import type { ProviderEndpoint } from '../core/provider-api.ts';
import { GatewayError } from '../errors/catalogue.ts';
import { nativeOperation } from '../providers/descriptors.ts';
import { resolveRoute } from '../routing/resolve.ts';
import { validateBody } from './body-schemas.ts';
import type { FastPath } from './fast-path.ts';
import { forwardableClientHeaders } from './headers.ts';

export interface PipelineDeps {
  config: GatewayConfig;
  hooks: HookRegistry;
  fastPath: FastPath;
  provider(id: string): ProviderEndpoint;
  translator(): Translator | undefined;
}

/** The upstream call for a same-protocol request: provider URL, safe client headers + provider auth, model rewritten. */
export function sameProtocolUpstream(ctx: RequestContext, provider: ProviderEndpoint): UpstreamRequest {
  const upstreamModel = ctx.route!.target.model;
  const gemini = ctx.protocol === 'gemini';
  const operation =
    ctx.operation === 'count_tokens' ? (gemini ? 'gemini_count_tokens' : 'messages_count_tokens') : nativeOperation(ctx.protocol, ctx.stream);
  const url = new URL(provider.url(operation, upstreamModel));
  if (gemini) {
    // Keep the client's query (alt=sse, …) but never its credential.
    for (const [name, value] of Object.entries(ctx.query)) if (name !== 'key') url.searchParams.set(name, value);
  }
  const auth = provider.authHeaders();
  const headers = { ...auth, ...forwardableClientHeaders(ctx.headers) };
  for (const [name, value] of Object.entries(auth)) {
    if (name !== 'anthropic-version') headers[name] = value;
  }
  const body = ctx.body && !gemini && ctx.body.model !== upstreamModel ? { ...ctx.body, model: upstreamModel } : ctx.body;
  return { url: url.toString(), headers, body };
}

export function createGenerateHandler(deps: PipelineDeps) {
  return async function generate(ctx: RequestContext, req: Request, res: Response): Promise<void> {
    await deps.hooks.run('onRequest', ctx);
    validateBody(ctx.protocol, ctx.operation, ctx.body);
    if (!ctx.model) throw new GatewayError('invalid_request', "Missing required parameter: 'model'.", { param: 'model' });
    ctx.route = resolveRoute(deps.config, ctx.model, ctx.key);
    const provider = deps.provider(ctx.route.provider.id);
    if (!provider.available) {
      const missing = provider.missingEnv.length ? ` (${provider.missingEnv.join(', ')} not set)` : '';
      throw new GatewayError('provider_not_configured', `Provider "${provider.id}" for model '${ctx.model}' is not configured${missing}.`);
    }
    if (provider.protocols.includes(ctx.protocol)) {
      ctx.upstream = sameProtocolUpstream(ctx, provider);
      await deps.hooks.run('beforeUpstream', ctx);
      await deps.fastPath(ctx, req, res, provider.timeoutMs);
      return;
    }
    const translator = deps.translator();
    if (!translator) {
      throw new GatewayError(
        'translation_unavailable',
        `Model '${ctx.model}' is served by a ${provider.type}-type provider, which does not speak this protocol, and the protocol-translate plugin is not enabled.`,
      );
    }
    await translator.handle(ctx, req, res, { provider, beforeUpstream: (c) => deps.hooks.run('beforeUpstream', c) });
  };
}
