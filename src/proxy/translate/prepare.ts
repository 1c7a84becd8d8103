// Client body → IR → upstream body: decode with the client's codec, make the IR fit the upstream (remote
// images inlined and thought signatures restored for Gemini), encode with the upstream's codec, and record
// every feature dropped on the way.
import type { Response } from 'express';
import type { Logger } from 'winston';
import type { RequestContext } from '../../core/context.ts';
import { codecFor } from '../../protocols/index.ts';
import type { IRRequest } from '../../protocols/ir.ts';
import { inlineRemoteImages } from './image-inline.ts';
import type { TranslateOptions } from './options.ts';
import { restoreSignatures, type SignatureCache } from './signatures.ts';
import type { UpstreamProtocol } from './upstream.ts';

/** What one translator instance (one per gateway) shares across its requests. */
export interface TranslateDeps {
  options: TranslateOptions;
  signatures: SignatureCache;
  logger: Logger;
}

const DEFAULT_MAX_TOKENS = 4096;
const MAX_DROPPED_SHOWN = 32;

export function decodeClientRequest(ctx: RequestContext, body: unknown = ctx.body ?? {}): IRRequest {
  const codec = codecFor(ctx.protocol);
  const decodeContext = ctx.protocol === 'gemini' ? { ...(ctx.model ? { model: ctx.model } : {}), stream: ctx.stream } : undefined;
  return codec.decodeRequest(body, decodeContext);
}

/** Header-safe feature name: client-chosen keys may hold any character. */
function headerToken(name: string): string {
  return name.replace(/[^\x20-\x7e]|,/g, '?').slice(0, 64);
}

/** Adds names to ctx.dropped (the access log) and sets `x-gateway-dropped`. */
export function noteDropped(ctx: RequestContext, res: Response, names: readonly string[]): void {
  for (const name of names) if (!ctx.dropped.includes(name)) ctx.dropped.push(name);
  if (ctx.dropped.length === 0) return;
  const shown = ctx.dropped.slice(0, MAX_DROPPED_SHOWN).map(headerToken);
  if (ctx.dropped.length > MAX_DROPPED_SHOWN) shown.push(`+${ctx.dropped.length - MAX_DROPPED_SHOWN} more`);
  res.setHeader('x-gateway-dropped', shown.join(', '));
}

/** Makes the IR carriable by the upstream, then encodes it. `ir` is modified in place. */
export async function encodeForUpstream(
  ctx: RequestContext,
  res: Response,
  ir: IRRequest,
  upstream: UpstreamProtocol,
  deps: TranslateDeps,
): Promise<Record<string, unknown>> {
  const route = ctx.route;
  if (!route) throw new Error('translator called before routing');
  if (upstream === 'gemini') {
    const inlined = await inlineRemoteImages(ir, deps.options.imageFetch, ctx.signal);
    if (inlined > 0) ctx.logFields.imagesInlined = inlined;
    restoreSignatures(ir, deps.signatures);
  }
  const encodeContext = { upstreamModel: route.target.model, defaultMaxTokens: route.model.maxTokens ?? DEFAULT_MAX_TOKENS, dropped: [] };
  const body = codecFor(upstream).encodeRequest(ir, encodeContext);
  noteDropped(ctx, res, [...(ir.dropped ?? []), ...encodeContext.dropped]);
  return body;
}
