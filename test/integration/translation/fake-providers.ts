// Scripted fake providers of each type (openai / anthropic / gemini) for the translation suite. Each one
// decodes what it received with its own protocol's codec and answers in its own wire shape, produced by
// that protocol's encoders (whose output the grammar checkers and golden fixtures pin down). The answer
// is picked by a `SCENARIO:<name>` marker in the prompt:
//   text (default)  a fixed sentence in five deltas, fixed usage
//   tool            a get_weather call, or — once the history holds its result — a final sentence
//   image           a sentence naming how many images arrived and their media types
//   error-mid       two deltas, then the protocol's in-band error
//   error-first     the in-band error as the very first event of the stream
//   cut             two deltas, then the connection ends without a finish
//   slow            one delta every 40 ms, for a long time (client-abort tests)
//   http-429 / http-500 / http-529   a non-2xx error in the provider's own shape (429 with retry-after)
import type http from 'node:http';
import { codecFor } from '../../../src/protocols/index.ts';
import { createGeminiStreamEncoder } from '../../../src/protocols/gemini/index.ts';
import type { ClientProtocol, IRBlock, IRError, IRRequest, IRResponse, IRStreamEvent, IRUsage } from '../../../src/protocols/ir.ts';
import { errorBody } from '../../../src/protocols/error-shapes.ts';
import { sendJson, sendSse, startFakeUpstream, type FakeUpstream, type RecordedRequest } from '../../helpers/fake-upstream.ts';

export type UpstreamType = 'openai' | 'anthropic' | 'gemini';
export const UPSTREAM_TYPES: readonly UpstreamType[] = ['openai', 'anthropic', 'gemini'];

export const UPSTREAM_MODEL = 'fake-up-1';
export const ANSWER_PIECES = ['Hello', ' from the', ' fake upstream.', ' It is', ' a fine day.'];
export const ANSWER = ANSWER_PIECES.join('');
export const TOOL_ANSWER = 'It is 18 degrees in Paris.';
/** Prompt total 21 (4 of them cache reads), output 9. */
export const USAGE: IRUsage = { inputTokens: 21, outputTokens: 9, cacheReadTokens: 4 };
export const GEMINI_SIGNATURE = 'c2lnLWZha2UtZ2VtaW5pLTE=';
export const TOOL_CALL_IDS: Record<UpstreamType, string | undefined> = { openai: 'call_fake123', anthropic: 'toolu_fake123', gemini: undefined };

const PROTOCOL: Record<UpstreamType, ClientProtocol> = { openai: 'chat', anthropic: 'messages', gemini: 'gemini' };

export function scenarioOf(body: unknown): string {
  return /SCENARIO:([a-z0-9-]+)/.exec(JSON.stringify(body ?? ''))?.[1] ?? 'text';
}

function decode(type: UpstreamType, req: RecordedRequest): { ir: IRRequest; stream: boolean } {
  if (type !== 'gemini') {
    const ir = codecFor(PROTOCOL[type]).decodeRequest(req.body);
    return { ir, stream: ir.stream };
  }
  const stream = req.path.includes(':streamGenerateContent');
  const model = /models\/([^:]+):/.exec(req.path)?.[1] ?? UPSTREAM_MODEL;
  return { ir: codecFor('gemini').decodeRequest(req.body, { model, stream }), stream };
}

const hasToolResult = (ir: IRRequest): boolean => ir.messages.some((m) => m.content.some((b) => b.type === 'tool_result'));

function imageSummary(ir: IRRequest): string {
  const images = ir.messages.flatMap((m) => m.content).filter((b): b is Extract<IRBlock, { type: 'image' }> => b.type === 'image');
  const kinds = images.map((b) => {
    const dataUrl = b.source.kind === 'url' ? /^data:([^;]+);base64,(.*)$/.exec(b.source.url) : null;
    if (dataUrl) return `${dataUrl[1]}:${dataUrl[2]!.length}`;
    return b.source.kind === 'base64' ? `${b.source.mediaType}:${b.source.data.length}` : `url:${b.source.url}`;
  });
  return `saw ${images.length} image(s): ${kinds.join(', ')}`;
}

interface Answer {
  text?: string[];
  toolCall?: { id: string | undefined; name: string; argPieces: string[] };
  inBandError?: IRError;
  cut?: boolean;
  slow?: boolean;
}

function answerFor(type: UpstreamType, ir: IRRequest, scenario: string): Answer {
  if (scenario === 'tool' && !hasToolResult(ir)) {
    return { toolCall: { id: TOOL_CALL_IDS[type], name: 'get_weather', argPieces: ['{"city":', '"Paris"}'] } };
  }
  if (scenario === 'tool') return { text: [TOOL_ANSWER] };
  if (scenario === 'image') return { text: [imageSummary(ir)] };
  if (scenario === 'error-mid') return { text: ANSWER_PIECES.slice(0, 2), inBandError: { status: 529, kind: 'overloaded', message: 'Overloaded' } };
  if (scenario === 'error-first') return { inBandError: { status: 529, kind: 'overloaded', message: 'Overloaded' } };
  if (scenario === 'cut') return { text: ANSWER_PIECES.slice(0, 2), cut: true };
  if (scenario === 'slow') return { text: Array.from({ length: 500 }, (_, i) => `tick ${i}. `), slow: true };
  return { text: ANSWER_PIECES };
}

function irResponse(answer: Answer): IRResponse {
  const content: IRBlock[] = [];
  if (answer.text) content.push({ type: 'text', text: answer.text.join('') });
  if (answer.toolCall) content.push({ type: 'tool_call', id: answer.toolCall.id ?? 'unused', name: answer.toolCall.name, arguments: answer.toolCall.argPieces.join('') });
  return { id: 'fake-resp-1', model: UPSTREAM_MODEL, created: 1_700_000_000, content, stopReason: answer.toolCall ? 'tool_use' : 'end_turn', usage: USAGE };
}

function streamEvents(answer: Answer): IRStreamEvent[] {
  if (!answer.text && answer.inBandError) return [{ type: 'error', error: answer.inBandError }];
  const events: IRStreamEvent[] = [{ type: 'start', id: 'fake-resp-1', model: UPSTREAM_MODEL, usage: { inputTokens: USAGE.inputTokens, cacheReadTokens: USAGE.cacheReadTokens } }];
  if (answer.text) {
    events.push({ type: 'block_start', index: 0, block: { type: 'text' } });
    for (const text of answer.text) events.push({ type: 'block_delta', index: 0, delta: { type: 'text', text } });
    if (answer.inBandError) return [...events, { type: 'error', error: answer.inBandError }];
    if (answer.cut) return events;
    events.push({ type: 'block_stop', index: 0 });
  }
  if (answer.toolCall) {
    const call = answer.toolCall;
    events.push({ type: 'block_start', index: 1, block: { type: 'tool_call', id: call.id ?? 'unused', name: call.name } });
    for (const partialJson of call.argPieces) events.push({ type: 'block_delta', index: 1, delta: { type: 'arguments', partialJson } });
    events.push({ type: 'block_stop', index: 1 });
  }
  events.push({ type: 'usage', usage: USAGE }, { type: 'finish', stopReason: answer.toolCall ? 'tool_use' : 'end_turn' });
  return events;
}

/** Gemini's Developer API returns function calls without an id, signed; written by hand to keep it that way. */
function geminiToolCallChunk(): Record<string, unknown> {
  return {
    candidates: [
      {
        content: { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: { city: 'Paris' } }, thoughtSignature: GEMINI_SIGNATURE }] },
        finishReason: 'STOP',
        index: 0,
      },
    ],
    usageMetadata: { promptTokenCount: 21, cachedContentTokenCount: 4, candidatesTokenCount: 9, totalTokenCount: 30 },
    modelVersion: UPSTREAM_MODEL,
    responseId: 'fake-resp-1',
  };
}

function streamFrames(type: UpstreamType, ir: IRRequest, answer: Answer): string[] {
  if (type === 'gemini' && answer.toolCall) return [`data: ${JSON.stringify(geminiToolCallChunk())}\r\n\r\n`];
  const ctx = { request: ir, clientModel: UPSTREAM_MODEL };
  const encoder = type === 'gemini' ? createGeminiStreamEncoder(ctx, 'sse') : codecFor(PROTOCOL[type]).createStreamEncoder(ctx);
  const frames = streamEvents(answer).map((event) => encoder.push(event));
  if (!answer.inBandError && !answer.cut) frames.push(encoder.end());
  return frames.filter((frame) => frame !== '');
}

function sendHttpError(type: UpstreamType, res: http.ServerResponse, status: number): void {
  const kind = status === 429 ? 'rate_limit' : status === 529 ? 'overloaded' : 'server_error';
  const message = status === 429 ? 'Rate limit reached for requests' : status === 529 ? 'Overloaded' : 'The server had an error';
  const headers: Record<string, string> = status === 429 ? { 'retry-after': '7', 'retry-after-ms': '7000' } : {};
  sendJson(res, status, errorBody(PROTOCOL[type], { status, kind, message }), headers);
}

async function respond(type: UpstreamType, req: RecordedRequest, res: http.ServerResponse): Promise<void> {
  const scenario = scenarioOf(req.body);
  const httpError = /^http-(\d{3})$/.exec(scenario);
  if (httpError) return sendHttpError(type, res, Number(httpError[1]));
  const { ir, stream } = decode(type, req);
  const answer = answerFor(type, ir, scenario);
  if (!stream) {
    if (type === 'gemini' && answer.toolCall) return sendJson(res, 200, geminiToolCallChunk());
    const ctx = { request: ir, clientModel: UPSTREAM_MODEL };
    return sendJson(res, 200, codecFor(PROTOCOL[type]).encodeResponse(irResponse(answer), ctx));
  }
  await sendSse(res, streamFrames(type, ir, answer), answer.slow ? 40 : 0);
}

export interface FakeProvider {
  type: UpstreamType;
  upstream: FakeUpstream;
  /** The most recent generation request (count_tokens included) this provider received. */
  last(): RecordedRequest;
}

export async function startFakeProvider(type: UpstreamType): Promise<FakeProvider> {
  const upstream = await startFakeUpstream((req, res) => {
    if (/count_tokens|:countTokens/.test(req.path)) {
      return sendJson(res, 200, type === 'anthropic' ? { input_tokens: 42 } : { totalTokens: 42 });
    }
    return respond(type, req, res);
  });
  return {
    type,
    upstream,
    last() {
      const request = upstream.requests.at(-1);
      if (!request) throw new Error(`fake ${type} provider received no request`);
      return request;
    },
  };
}
