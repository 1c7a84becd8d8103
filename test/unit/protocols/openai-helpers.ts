// Shared helpers for the Chat and Responses codec tests: fixture loading and running stream codecs.
import { readFileSync } from 'node:fs';
import type { Codec, ResponseEncodeContext } from '../../../src/protocols/codec.ts';
import type { IRRequest, IRStreamEvent } from '../../../src/protocols/ir.ts';
import { parseSse } from '../../helpers/grammar/sse.ts';

const FIXTURES = new URL('../../fixtures/', import.meta.url);

export function fixtureText(protocol: 'chat' | 'responses', kind: 'requests' | 'responses' | 'streams', name: string): string {
  return readFileSync(new URL(`${protocol}/${kind}/${name}`, FIXTURES), 'utf8');
}

export function fixtureJson(protocol: 'chat' | 'responses', kind: 'requests' | 'responses', name: string): Record<string, unknown> {
  return JSON.parse(fixtureText(protocol, kind, `${name}.json`)) as Record<string, unknown>;
}

/** Runs raw SSE text through a codec's stream decoder, including end(). */
export function decodeStream(codec: Codec, text: string): IRStreamEvent[] {
  const decoder = codec.createStreamDecoder();
  const events = parseSse(text).flatMap((frame) => decoder.push(frame));
  return [...events, ...decoder.end()];
}

/** Runs IR events through a codec's stream encoder, including end(). */
export function encodeStream(codec: Codec, events: IRStreamEvent[], ctx: ResponseEncodeContext): string {
  const encoder = codec.createStreamEncoder(ctx);
  return events.map((event) => encoder.push(event)).join('') + encoder.end();
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
