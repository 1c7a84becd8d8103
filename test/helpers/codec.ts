// Driving codecs in unit tests: stream decode/encode runners, an encode context, and a CodecError catcher,
// shared so each protocol's tests exercise its codec the same way.
import { expect } from 'chai';
import { CodecError } from '../../src/protocols/codec.ts';
import type { Codec, ResponseEncodeContext, StreamEncoder } from '../../src/protocols/codec.ts';
import type { IRMessage, IRRequest, IRStreamEvent } from '../../src/protocols/ir.ts';
import { parseSse } from './grammar/sse.ts';

/** Runs raw SSE text through a codec's stream decoder, including end(). */
export function decodeStream(codec: Pick<Codec, 'createStreamDecoder'>, text: string): IRStreamEvent[] {
  const decoder = codec.createStreamDecoder();
  const events = parseSse(text).flatMap((frame) => decoder.push(frame));
  return [...events, ...decoder.end()];
}

/** Pushes IR events through an encoder and ends it: the whole stream text. */
export function drainEncoder(encoder: StreamEncoder, events: IRStreamEvent[]): string {
  return events.map((event) => encoder.push(event)).join('') + encoder.end();
}

/** Runs IR events through a fresh stream encoder of a codec, including end(). */
export function encodeStream(codec: Pick<Codec, 'createStreamEncoder'>, events: IRStreamEvent[], ctx: ResponseEncodeContext): string {
  return drainEncoder(codec.createStreamEncoder(ctx), events);
}

export function encodeCtx(request: Partial<IRRequest> = {}, clientModel = 'client-model'): ResponseEncodeContext {
  return { request: { model: clientModel, messages: [], stream: true, ...request }, clientModel };
}

/** Parsed JSON data of every SSE frame (skipping `[DONE]`). */
export function sseData(text: string): Array<Record<string, unknown>> {
  return parseSse(text)
    .filter((frame) => frame.data !== '[DONE]')
    .map((frame) => JSON.parse(frame.data) as Record<string, unknown>);
}

/** The CodecError `fn` throws; fails the test when it throws anything else or nothing. */
export function codecError(fn: () => unknown): CodecError {
  try {
    fn();
  } catch (error) {
    expect(error).to.be.instanceOf(CodecError);
    return error as CodecError;
  }
  throw new Error('expected a CodecError');
}

export const userText = (text: string): IRMessage => ({ role: 'user', content: [{ type: 'text', text }] });
