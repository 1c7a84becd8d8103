// The official `openai` SDK parses what the Chat and Responses stream encoders emit: generated IR streams are fed
// to `chat.completions.stream()` / `responses.stream()` through an in-memory fetch (no network), and the SDK's
// accumulated result must match the IR. The SDK's own accumulators are strict (item ids, indexes, identities).
import { expect } from 'chai';
import OpenAI from 'openai';
import { chatCodec } from '../../../src/protocols/chat/index.ts';
import type { Codec } from '../../../src/protocols/codec.ts';
import type { IRStreamEvent } from '../../../src/protocols/ir.ts';
import { responsesCodec } from '../../../src/protocols/responses/index.ts';
import { Rng, collectStream, genResponse, responseToEvents } from '../../helpers/ir-gen.ts';
import { encodeCtx, encodeStream } from '../../helpers/codec.ts';

const SEEDS = 60;

function sdkClient(body: string): OpenAI {
  const fetch = async (): Promise<Response> => new Response(body, { headers: { 'content-type': 'text/event-stream' } });
  return new OpenAI({ apiKey: 'test-key', baseURL: 'http://gateway.test/v1', maxRetries: 0, fetch });
}

function sse(codec: Codec, events: IRStreamEvent[], includeUsage = true): string {
  return encodeStream(codec, events, encodeCtx({ includeUsage }, 'gpt-client'));
}

function texts(events: IRStreamEvent[], type: 'text' | 'reasoning'): string {
  return collectStream(events)
    .content.flatMap((b) => (b.type === type ? [b.text] : []))
    .join('');
}

function calls(events: IRStreamEvent[]): Array<{ id: string; name: string; arguments: string }> {
  return collectStream(events).content.flatMap((b) => (b.type === 'tool_call' ? [{ id: b.id, name: b.name, arguments: b.arguments }] : []));
}

const ERROR_EVENTS: IRStreamEvent[] = [
  { type: 'start' },
  { type: 'block_start', index: 0, block: { type: 'text' } },
  { type: 'block_delta', index: 0, delta: { type: 'text', text: 'partial' } },
  { type: 'error', error: { status: 429, kind: 'rate_limit', message: 'Rate limited upstream' } },
];

describe('openai SDK parses the Chat stream encoder output', () => {
  it(`chat.completions.stream() → finalChatCompletion() matches the IR (${SEEDS} seeds)`, async () => {
    for (let seed = 1; seed <= SEEDS; seed++) {
      const rng = new Rng(seed);
      const events = responseToEvents(rng, genResponse(rng));
      const stream = sdkClient(sse(chatCodec, events)).chat.completions.stream({ model: 'gpt-client', messages: [{ role: 'user', content: 'hi' }], stream_options: { include_usage: true } });
      const completion = await stream.finalChatCompletion();
      const message = completion.choices[0]?.message;
      expect(message?.content ?? '', `seed ${seed}`).to.equal(texts(events, 'text'));
      expect((message?.tool_calls ?? []).map((c) => (c.type === 'function' ? { id: c.id, name: c.function.name, arguments: c.function.arguments } : c)), `seed ${seed}`).to.deep.equal(calls(events));
      expect(completion.usage?.completion_tokens, `seed ${seed}`).to.equal(collectStream(events).usage.outputTokens ?? 0);
    }
  });

  it('an in-band error makes the SDK throw an APIError with the message', async () => {
    const stream = sdkClient(sse(chatCodec, ERROR_EVENTS)).chat.completions.stream({ model: 'gpt-client', messages: [{ role: 'user', content: 'hi' }] });
    let caught: unknown;
    try {
      await stream.finalChatCompletion();
    } catch (error) {
      caught = error;
    }
    expect(caught).to.be.instanceOf(OpenAI.APIError);
    expect((caught as Error).message).to.contain('Rate limited upstream');
  });
});

describe('openai SDK parses the Responses stream encoder output', () => {
  it(`responses.stream() → finalResponse() matches the IR (${SEEDS} seeds)`, async () => {
    for (let seed = 1; seed <= SEEDS; seed++) {
      const rng = new Rng(seed);
      const events = responseToEvents(rng, genResponse(rng));
      const response = await sdkClient(sse(responsesCodec, events)).responses.stream({ model: 'gpt-client', input: 'hi' }).finalResponse();
      expect(response.output_text, `seed ${seed}`).to.equal(texts(events, 'text'));
      const fnCalls = response.output.flatMap((item) => (item.type === 'function_call' ? [{ id: item.call_id, name: item.name, arguments: item.arguments }] : []));
      expect(fnCalls, `seed ${seed}`).to.deep.equal(calls(events));
      const summaries = response.output.flatMap((item) => (item.type === 'reasoning' ? item.summary.map((s) => s.text) : [])).join('');
      expect(summaries, `seed ${seed}`).to.equal(texts(events, 'reasoning'));
      expect(response.usage?.output_tokens, `seed ${seed}`).to.equal(collectStream(events).usage.outputTokens ?? 0);
    }
  });

  it('an error ends the stream with response.failed, which the SDK surfaces', async () => {
    const events: unknown[] = [];
    const stream = sdkClient(sse(responsesCodec, ERROR_EVENTS)).responses.stream({ model: 'gpt-client', input: 'hi' });
    let caught: unknown;
    try {
      for await (const event of stream) events.push(event);
      await stream.finalResponse();
    } catch (error) {
      caught = error;
    }
    const failed = events.find((e) => (e as { type?: string }).type === 'response.failed') as { response: { status: string; error: { code: string; message: string } } } | undefined;
    expect(failed?.response.status).to.equal('failed');
    expect(failed?.response.error).to.deep.equal({ code: 'rate_limit_exceeded', message: 'Rate limited upstream' });
    expect(caught === undefined || caught instanceof Error).to.equal(true);
  });
});
