// Mock text generation: decode the request with the protocol's own codec, answer with the last user
// message, and encode the answer (or its stream) with the same codec, so every shape is the real one.
import type http from 'node:http';
import { randomUUID } from 'node:crypto';
import type { RequestDecodeContext, StreamEncoder } from '../../protocols/codec.ts';
import { createGeminiStreamEncoder } from '../../protocols/gemini/index.ts';
import { codecFor } from '../../protocols/index.ts';
import type { ClientProtocol, IRBlock, IRRequest, IRResponse, IRStreamEvent } from '../../protocols/ir.ts';

export interface MockGenerateOptions {
  chunkDelayMs?: number;
  geminiSse?: boolean;
}

function textOf(blocks: readonly IRBlock[]): string {
  return blocks
    .map((b) => (b.type === 'text' ? b.text : b.type === 'tool_result' ? textOf(b.content) : ''))
    .filter(Boolean)
    .join('\n');
}

/** The deterministic answer: the last user message's text. */
export function mockReply(request: IRRequest): string {
  const lastUser = [...request.messages].reverse().find((m) => m.role === 'user');
  return (lastUser && textOf(lastUser.content)) || '(empty message)';
}

const countTokens = (text: string): number => Math.max(1, Math.ceil(text.length / 4));

function promptTokens(request: IRRequest): number {
  return countTokens((request.system ?? '') + request.messages.map((m) => textOf(m.content)).join('\n'));
}

/** When the client forces a tool, call it (with empty arguments) so tool flows can be tried too. */
function forcedTool(request: IRRequest): string | undefined {
  const choice = request.toolChoice;
  if (!request.tools?.length || !choice) return undefined;
  if (choice.type === 'tool') return choice.name;
  if (choice.type === 'required') return request.tools[0]?.name;
  return undefined;
}

function buildResponse(request: IRRequest): IRResponse {
  const tool = forcedTool(request);
  const text = mockReply(request);
  const content: IRBlock[] = tool
    ? [{ type: 'tool_call', id: `call_${randomUUID().slice(0, 12)}`, name: tool, arguments: '{}' }]
    : [{ type: 'text', text }];
  return {
    id: `mock-${randomUUID()}`,
    model: request.model,
    created: Math.floor(Date.now() / 1000),
    content,
    stopReason: tool ? 'tool_use' : 'end_turn',
    usage: { inputTokens: promptTokens(request), outputTokens: countTokens(tool ? '{}' : text) },
  };
}

/** Splits text into at most four pieces at word boundaries. */
function pieces(text: string): string[] {
  const words = text.split(/(?<=\s)/);
  const size = Math.max(1, Math.ceil(words.length / 4));
  const out: string[] = [];
  for (let i = 0; i < words.length; i += size) out.push(words.slice(i, i + size).join(''));
  return out;
}

function streamEvents(response: IRResponse): IRStreamEvent[] {
  const events: IRStreamEvent[] = [{ type: 'start', id: response.id, model: response.model, usage: { inputTokens: response.usage?.inputTokens ?? 0 } }];
  const block = response.content[0];
  if (block?.type === 'tool_call') {
    events.push({ type: 'block_start', index: 0, block: { type: 'tool_call', id: block.id, name: block.name } });
    events.push({ type: 'block_delta', index: 0, delta: { type: 'arguments', partialJson: block.arguments } });
  } else if (block?.type === 'text') {
    events.push({ type: 'block_start', index: 0, block: { type: 'text' } });
    for (const piece of pieces(block.text)) events.push({ type: 'block_delta', index: 0, delta: { type: 'text', text: piece } });
  }
  events.push({ type: 'block_stop', index: 0 });
  if (response.usage) events.push({ type: 'usage', usage: response.usage });
  events.push({ type: 'finish', stopReason: response.stopReason });
  return events;
}

export async function mockGenerate(
  protocol: ClientProtocol,
  body: unknown,
  decodeCtx: RequestDecodeContext,
  res: http.ServerResponse,
  options: MockGenerateOptions,
): Promise<void> {
  const codec = codecFor(protocol);
  const request = codec.decodeRequest(body, decodeCtx);
  const response = buildResponse(request);
  const encodeCtx = { request, clientModel: request.model };
  if (!request.stream) {
    const data = JSON.stringify(codec.encodeResponse(response, encodeCtx));
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) });
    res.end(data);
    return;
  }
  const jsonArray = protocol === 'gemini' && !options.geminiSse;
  const encoder: StreamEncoder =
    protocol === 'gemini' ? createGeminiStreamEncoder(encodeCtx, jsonArray ? 'json-array' : 'sse') : codec.createStreamEncoder(encodeCtx);
  res.writeHead(200, { 'content-type': jsonArray ? 'application/json' : 'text/event-stream', 'cache-control': 'no-cache' });
  for (const event of streamEvents(response)) {
    if (res.destroyed) return;
    const text = encoder.push(event);
    if (text) res.write(text);
    if (options.chunkDelayMs) await new Promise((r) => setTimeout(r, options.chunkDelayMs));
  }
  res.end(encoder.end());
}

export function mockCountTokens(protocol: ClientProtocol, body: unknown, decodeCtx: RequestDecodeContext): Record<string, unknown> {
  const request = codecFor(protocol).decodeRequest(protocol === 'messages' ? { max_tokens: 1, ...(body as object) } : body, decodeCtx);
  const tokens = promptTokens(request);
  return protocol === 'gemini' ? { totalTokens: tokens } : { input_tokens: tokens };
}
