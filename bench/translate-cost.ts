// In-process cost of translation alone, without sockets: the streamed path's work per upstream chunk
// (SSE parse → Chat stream decoder → Anthropic stream encoder) and the non-streamed path's work per request
// (Anthropic request → IR → Chat request; Chat response → IR → Anthropic response), in µs.
import { createParser } from 'eventsource-parser';
import { codecFor } from '../src/protocols/index.ts';
import type { SseFrame } from '../src/protocols/codec.ts';
import { CHAT_COMPLETION, chatStreamFrames } from './payloads.ts';

export interface TranslationCost {
  /** Upstream SSE frames pushed per measured stream. */
  framesPerStream: number;
  /** µs per upstream frame: parse + decode + encode. */
  microsPerChunk: number;
  /** µs per non-streamed request: both directions, bodies parsed and serialised. */
  microsPerRequest: number;
}

const ANTHROPIC_BODY = JSON.stringify({
  model: 'bench-model',
  max_tokens: 128,
  temperature: 0.2,
  system: 'You are a concise assistant. Answer in plain prose.',
  messages: [{ role: 'user', content: 'Summarise the benefits of connection pooling in two sentences.' }],
});

function translateStream(text: string): number {
  const decoder = codecFor('chat').createStreamDecoder();
  const request = { model: 'bench-model', messages: [], stream: true };
  const encoder = codecFor('messages').createStreamEncoder({ request, clientModel: 'bench-model' });
  const frames: SseFrame[] = [];
  const parser = createParser({ onEvent: (m) => frames.push({ data: m.data }) });
  parser.feed(text);
  let bytes = 0;
  for (const frame of frames) for (const event of decoder.push(frame)) bytes += encoder.push(event).length;
  for (const event of decoder.end()) bytes += encoder.push(event).length;
  return bytes + encoder.end().length;
}

function translateRequestAndResponse(): number {
  const messages = codecFor('messages');
  const chat = codecFor('chat');
  const ir = messages.decodeRequest(JSON.parse(ANTHROPIC_BODY));
  const upstreamBody = JSON.stringify(chat.encodeRequest(ir, { upstreamModel: 'gpt-4o-mini', defaultMaxTokens: 4096, dropped: [] }));
  const answer = chat.decodeResponse(JSON.parse(CHAT_COMPLETION));
  return upstreamBody.length + JSON.stringify(messages.encodeResponse(answer, { request: ir, clientModel: 'bench-model' })).length;
}

function timeLoop(iterations: number, work: () => number): number {
  let sink = 0;
  for (let i = 0; i < Math.min(iterations, 2000); i += 1) sink += work(); // warm-up (JIT)
  const started = performance.now();
  for (let i = 0; i < iterations; i += 1) sink += work();
  const elapsedMs = performance.now() - started;
  if (sink < 0) throw new Error('unreachable');
  return (elapsedMs * 1000) / iterations;
}

export function measureTranslationCost(framesPerStream: number, iterations = 20_000): TranslationCost {
  const text = chatStreamFrames(framesPerStream).join('');
  const microsPerStream = timeLoop(iterations, () => translateStream(text));
  return {
    framesPerStream,
    microsPerChunk: microsPerStream / framesPerStream,
    microsPerRequest: timeLoop(iterations, translateRequestAndResponse),
  };
}
