// Anthropic `POST /v1/messages/count_tokens` and Gemini `:countTokens` against an upstream of another type.
// Anthropic and Gemini upstreams have a count endpoint: the request is translated and their number is
// re-shaped ({input_tokens} ⇄ {totalTokens}). OpenAI-type upstreams have none: the gateway estimates with
// gpt-tokenizer (o200k_base) over the request's text and says so in `x-gateway-token-count: estimate`.
// The tokenizer's encoder tables take ~77 MB, so it is imported on the first estimate, not at start-up.
import type { Response } from 'express';
import type { RequestContext } from '../../core/context.ts';
import type { TranslatorTools } from '../../core/plugin.ts';
import { GatewayError } from '../../errors/catalogue.ts';
import { codecFor } from '../../protocols/index.ts';
import type { IRBlock, IRRequest } from '../../protocols/ir.ts';
import { decodeClientRequest, encodeForUpstream, noteDropped, type TranslateDeps } from './prepare.ts';
import { relayUpstreamError } from './upstream-error.ts';
import { callUpstream, readCapped, parseJsonOr, upstreamHeaders, upstreamProtocolFor } from './upstream.ts';

/** Rough costs for what a text tokenizer cannot see (documented in docs/translation.md). */
const IMAGE_TOKENS = 765;
const BINARY_DOCUMENT_TOKENS = 1500;
const PER_MESSAGE_TOKENS = 4;
const MAX_COUNT_BODY = 1024 * 1024;
/** Anthropic count_tokens accepts only these fields of a Messages body. */
const MESSAGES_COUNT_FIELDS = ['model', 'messages', 'system', 'tools', 'tool_choice', 'thinking'];

type CountText = (text: string) => number;

let tokenizer: CountText | undefined;

/** Imports gpt-tokenizer once; estimateInputTokens needs it loaded. */
export async function loadTokenizer(): Promise<void> {
  tokenizer ??= (await import('gpt-tokenizer')).countTokens;
}

function blockTokens(block: IRBlock, countTextTokens: CountText): number {
  switch (block.type) {
    case 'text':
      return countTextTokens(block.text);
    case 'reasoning':
      return countTextTokens(block.text);
    case 'tool_call':
      return countTextTokens(`${block.name} ${block.arguments}`);
    case 'tool_result':
      return block.content.reduce((sum, item) => sum + blockTokens(item, countTextTokens), 0);
    case 'image':
      return IMAGE_TOKENS;
    case 'document':
      return block.mediaType.startsWith('text/') ? countTextTokens(Buffer.from(block.data, 'base64').toString('utf8')) : BINARY_DOCUMENT_TOKENS;
  }
}

/** An estimate of the prompt's token count for upstreams without a count endpoint (after loadTokenizer()). */
export function estimateInputTokens(ir: IRRequest): number {
  const countTextTokens = tokenizer;
  if (countTextTokens === undefined) throw new Error('estimateInputTokens: await loadTokenizer() first');
  let total = ir.system ? countTextTokens(ir.system) + PER_MESSAGE_TOKENS : 0;
  for (const message of ir.messages) {
    total += PER_MESSAGE_TOKENS;
    for (const block of message.content) total += blockTokens(block, countTextTokens);
  }
  for (const tool of ir.tools ?? []) total += countTextTokens(JSON.stringify(tool));
  return total;
}

function countBody(upstream: 'messages' | 'gemini', body: Record<string, unknown>, model: string): Record<string, unknown> {
  if (upstream === 'messages') return Object.fromEntries(Object.entries(body).filter(([key]) => MESSAGES_COUNT_FIELDS.includes(key)));
  if (body.systemInstruction === undefined && body.tools === undefined) return { contents: body.contents };
  const { generationConfig: _unused, ...request } = body;
  return { generateContentRequest: { model: `models/${model}`, ...request } };
}

/** The count in the client's own shape (Responses' input_tokens shape for OpenAI clients). */
function countShape(ctx: RequestContext, count: number): Record<string, unknown> {
  if (ctx.protocol === 'gemini') return { totalTokens: count };
  if (ctx.protocol === 'messages') return { input_tokens: count };
  return { object: 'response.input_tokens', input_tokens: count };
}

function answer(ctx: RequestContext, res: Response, count: number): void {
  const body = countShape(ctx, count);
  ctx.logFields.tokenCount = count;
  res.status(200);
  ctx.response = { status: 200, headers: res.getHeaders(), streamed: false };
  res.json(body);
}

async function askUpstream(
  ctx: RequestContext,
  res: Response,
  upstream: 'messages' | 'gemini',
  ir: IRRequest,
  tools: TranslatorTools,
  deps: TranslateDeps,
): Promise<void> {
  const model = ctx.route!.target.model;
  const encoded = await encodeForUpstream(ctx, res, ir, upstream, deps);
  const operation = upstream === 'messages' ? 'messages_count_tokens' : 'gemini_count_tokens';
  ctx.upstream = {
    url: tools.provider.url(operation, model),
    headers: upstreamHeaders(tools.provider, 'application/json'),
    body: countBody(upstream, encoded, model),
  };
  await tools.beforeUpstream(ctx);
  const response = await callUpstream(ctx, tools.provider);
  if (response.status < 200 || response.status >= 300) return relayUpstreamError(ctx, res, response, codecFor(upstream));
  const parsed = parseJsonOr(await readCapped(response.body, MAX_COUNT_BODY));
  const record: Record<string, unknown> = parsed !== null && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
  const count = upstream === 'messages' ? record.input_tokens : record.totalTokens;
  if (typeof count !== 'number') {
    throw new GatewayError('upstream_bad_response', `Provider "${tools.provider.id}" answered the token count without a number.`);
  }
  answer(ctx, res, count);
}

export async function handleCountTokens(ctx: RequestContext, res: Response, tools: TranslatorTools, deps: TranslateDeps): Promise<void> {
  const body = ctx.body ?? {};
  // count_tokens bodies carry no max_tokens, which the Messages decoder otherwise requires.
  const ir = decodeClientRequest(ctx, ctx.protocol === 'messages' && body.max_tokens === undefined ? { ...body, max_tokens: 1024 } : body);
  ir.stream = false;
  const upstream = upstreamProtocolFor(tools.provider.type);
  if (upstream !== 'chat') return askUpstream(ctx, res, upstream, ir, tools, deps);
  noteDropped(ctx, res, ir.dropped ?? []);
  res.setHeader('x-gateway-token-count', 'estimate');
  await loadTokenizer();
  answer(ctx, res, estimateInputTokens(ir));
}
