// Chat Completions codec: stream decoding of every SSE fixture, stream encoding as a state machine, grammar.
import { expect } from 'chai';
import { chatCodec } from '../../../src/protocols/chat/index.ts';
import type { IRStreamEvent } from '../../../src/protocols/ir.ts';
import { checkChatStream } from '../../helpers/grammar/chat.ts';
import { collectStream } from '../../helpers/ir-gen.ts';
import { decodeStream, encodeCtx, encodeStream, sseData } from '../../helpers/codec.ts';
import { fixtureText } from '../../helpers/fixtures.ts';

function decodeFixture(name: string): IRStreamEvent[] {
  return decodeStream(chatCodec, fixtureText('chat', 'streams', `${name}.txt`));
}

const chunk = (content: Record<string, unknown>, finish: string | null = null): string =>
  `data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: content, finish_reason: finish }] })}\n\n`;

describe('chat codec: stream decoder (fixtures)', () => {
  it('text stream with include_usage: usage arrives after finish_reason, finish is held until it', () => {
    const events = decodeFixture('text-usage');
    expect(events[0]).to.deep.equal({ type: 'start', id: 'chatcmpl-BKr1wX5qjFjPJ6bZ9AxNYh6sTq2Lc', model: 'gpt-4o-mini-2024-07-18' });
    expect(events[1]).to.deep.equal({ type: 'block_start', index: 0, block: { type: 'text' } });
    expect(events.slice(-3)).to.deep.equal([
      { type: 'block_stop', index: 0 },
      { type: 'usage', usage: { inputTokens: 13, outputTokens: 12 } },
      { type: 'finish', stopReason: 'end_turn' },
    ]);
    expect(collectStream(events).content).to.deep.equal([{ type: 'text', text: "Bonjour ! Comment puis-je vous aider aujourd'hui ?" }]);
  });

  it('two parallel tool calls become two ordered tool_call blocks', () => {
    const events = decodeFixture('tool-calls-parallel');
    const collected = collectStream(events);
    expect(collected.content).to.deep.equal([
      { type: 'tool_call', id: 'call_Ou2PdkRVgXJcRxjmP2V6QNfd', name: 'get_weather', arguments: '{"location": "Paris, France"}' },
      { type: 'tool_call', id: 'call_9BxH4nYDW8WpQKqT6m7k1Zsa', name: 'get_time', arguments: '{"city": "Boston"}' },
    ]);
    expect(collected.stopReason).to.equal('tool_use');
    expect(collected.usage).to.deep.equal({ inputTokens: 88, outputTokens: 47 });
    const stop0 = events.findIndex((e) => e.type === 'block_stop' && e.index === 0);
    const start1 = events.findIndex((e) => e.type === 'block_start' && e.index === 1);
    expect(stop0).to.be.greaterThan(0).and.lessThan(start1);
  });

  it('reasoning_content deltas → a reasoning block before the text block', () => {
    const collected = collectStream(decodeFixture('reasoning-content'));
    expect(collected.content).to.deep.equal([
      { type: 'reasoning', text: "Let me spell it: s-t-r-a-w-b-e-r-r-y. The r's are at 3, 8 and 9." },
      { type: 'text', text: "There are 3 r's." },
    ]);
    expect(collected.usage).to.deep.equal({ inputTokens: 17, outputTokens: 61, reasoningTokens: 49 });
  });

  it('an in-band error mid-stream becomes an error event and nothing follows', () => {
    const events = decodeFixture('error-midstream');
    expect(events.at(-1)).to.deep.equal({
      type: 'error',
      error: { status: 500, kind: 'server_error', message: 'The server had an error while processing your request. Sorry about that!' },
    });
    expect(events.filter((e) => e.type === 'finish')).to.have.length(0);
  });

  it('interleaved fragments of two calls are buffered into two whole blocks', () => {
    const events = decodeFixture('interleaved-tool-calls');
    expect(collectStream(events).content).to.deep.equal([
      { type: 'tool_call', id: 'chatcmpl-tool-a1', name: 'get_weather', arguments: '{"location": "Paris"}' },
      { type: 'tool_call', id: 'chatcmpl-tool-b2', name: 'get_time', arguments: '{"city": "Boston"}' },
    ]);
    const order = events.filter((e) => e.type.startsWith('block_')).map((e) => `${e.type}:${'index' in e ? e.index : ''}`);
    expect(order.indexOf('block_stop:0')).to.be.lessThan(order.indexOf('block_start:1'));
  });

  it('a stream cut without finish_reason or [DONE] ends with a 502 error event', () => {
    expect(decodeFixture('cut').at(-1)).to.deep.equal({
      type: 'error',
      error: { status: 502, kind: 'server_error', message: 'The upstream stream was cut before it finished (no finish_reason or [DONE])' },
    });
  });
});

describe('chat codec: stream decoder (edge cases)', () => {
  it('usage on the finish chunk itself (DeepSeek-style) finishes at once', () => {
    const text = `data: ${JSON.stringify({ id: 'x', model: 'm', choices: [{ index: 0, delta: { content: 'hi' }, finish_reason: 'stop' }], usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 } })}\n\n`;
    const decoder = chatCodec.createStreamDecoder();
    const events = decoder.push({ data: text.slice(6).trim() });
    expect(events.slice(-2)).to.deep.equal([{ type: 'usage', usage: { inputTokens: 3, outputTokens: 1 } }, { type: 'finish', stopReason: 'end_turn' }]);
    expect(decoder.push({ data: '[DONE]' })).to.deep.equal([]);
    expect(decoder.end()).to.deep.equal([]);
  });

  it('without usage, [DONE] releases the held finish', () => {
    const events = decodeStream(chatCodec, chunk({ role: 'assistant', content: 'a' }) + chunk({}, 'length') + 'data: [DONE]\n\n');
    expect(events.at(-1)).to.deep.equal({ type: 'finish', stopReason: 'max_tokens' });
  });

  it('[DONE] without a finish_reason still finishes (tool calls → tool_use)', () => {
    const events = decodeStream(chatCodec, chunk({ role: 'assistant', tool_calls: [{ index: 0, id: 'c1', function: { name: 'f', arguments: '{}' } }] }) + 'data: [DONE]\n\n');
    expect(events.at(-1)).to.deep.equal({ type: 'finish', stopReason: 'tool_use' });
  });

  it('a tool call without an id gets a synthesized call_ id', () => {
    const events = decodeStream(chatCodec, chunk({ tool_calls: [{ index: 0, function: { name: 'f', arguments: '{}' } }] }) + chunk({}, 'tool_calls') + 'data: [DONE]\n\n');
    const start = events.find((e) => e.type === 'block_start');
    expect(start).to.have.nested.property('block.id').that.match(/^call_[0-9a-f]{24}$/);
  });

  it('arguments for a call that was already closed are an error, not a corrupted call', () => {
    const text =
      chunk({ tool_calls: [{ index: 0, id: 'a', function: { name: 'f', arguments: '{}' } }] }) +
      chunk({ tool_calls: [{ index: 1, id: 'b', function: { name: 'g', arguments: '{}' } }] }) +
      chunk({ tool_calls: [{ index: 0, function: { arguments: '{"late":1}' } }] });
    const last = decodeStream(chatCodec, text).at(-1);
    expect(last).to.have.property('type', 'error');
    expect(last).to.have.nested.property('error.status', 502);
  });

  it('malformed JSON is a 502 error event; later frames are ignored', () => {
    const decoder = chatCodec.createStreamDecoder();
    expect(decoder.push({ data: '{"id":' })[0]).to.have.property('type', 'error');
    expect(decoder.push({ data: '{"id":"x","choices":[]}' })).to.deep.equal([]);
    expect(decoder.end()).to.deep.equal([]);
  });

  it('an `event: error` frame is an error even without an error key', () => {
    const decoder = chatCodec.createStreamDecoder();
    expect(decoder.push({ event: 'error', data: '{"message":"bad things"}' })).to.deep.equal([{ type: 'error', error: { status: 500, kind: 'server_error', message: 'bad things' } }]);
  });
});

const TEXT_EVENTS: IRStreamEvent[] = [
  { type: 'start', id: 'msg_01', model: 'claude', usage: { inputTokens: 20 } },
  { type: 'block_start', index: 0, block: { type: 'reasoning' } },
  { type: 'block_delta', index: 0, delta: { type: 'reasoning', text: 'Thinking' } },
  { type: 'block_delta', index: 0, delta: { type: 'signature', signature: { vendor: 'anthropic', value: 'sig' } } },
  { type: 'block_stop', index: 0 },
  { type: 'block_start', index: 1, block: { type: 'text' } },
  { type: 'block_delta', index: 1, delta: { type: 'text', text: 'Hel' } },
  { type: 'block_delta', index: 1, delta: { type: 'text', text: 'lo' } },
  { type: 'block_stop', index: 1 },
  { type: 'usage', usage: { outputTokens: 7 } },
  { type: 'finish', stopReason: 'end_turn' },
];

describe('chat codec: stream encoder', () => {
  it('text + reasoning with include_usage: role chunk, deltas, finish chunk, usage chunk, [DONE]', () => {
    const text = encodeStream(chatCodec, TEXT_EVENTS, encodeCtx({ includeUsage: true }, 'gpt-4o'));
    expect(checkChatStream(text, { requireUsage: true })).to.deep.equal([]);
    const chunks = sseData(text);
    expect(new Set(chunks.map((c) => c['id'])).size).to.equal(1);
    expect(chunks.map((c) => (c['choices'] as Array<Record<string, unknown>>)[0]?.['delta'] ?? null)).to.deep.equal([
      { role: 'assistant', content: '', refusal: null },
      { reasoning_content: 'Thinking' },
      { content: 'Hel' },
      { content: 'lo' },
      {},
      null,
    ]);
    expect(chunks[4]).to.have.nested.property('choices[0].finish_reason', 'stop');
    expect(chunks[5]).to.deep.include({ choices: [], model: 'gpt-4o' });
    expect(chunks[5]).to.have.nested.property('usage.prompt_tokens', 20);
    expect(chunks[5]).to.have.nested.property('usage.completion_tokens', 7);
    expect(chunks.slice(0, 5).every((c) => c['usage'] === null)).to.equal(true);
    expect(text.endsWith('data: [DONE]\n\n')).to.equal(true);
  });

  it('without include_usage there is no usage chunk and no usage key', () => {
    const text = encodeStream(chatCodec, TEXT_EVENTS, encodeCtx());
    expect(checkChatStream(text)).to.deep.equal([]);
    expect(sseData(text).some((c) => 'usage' in c)).to.equal(false);
  });

  it('usage arriving after finish still lands in the usage chunk', () => {
    const events = [...TEXT_EVENTS.slice(0, 9), { type: 'finish', stopReason: 'max_tokens' } as const, { type: 'usage', usage: { inputTokens: 5, outputTokens: 9 } } as const];
    const text = encodeStream(chatCodec, events, encodeCtx({ includeUsage: true }));
    expect(checkChatStream(text, { requireUsage: true })).to.deep.equal([]);
    expect(sseData(text).at(-1)).to.have.nested.property('usage.total_tokens', 14);
  });

  it('tool calls get Chat indexes 0,1 with id/name on the first delta only', () => {
    const events: IRStreamEvent[] = [
      { type: 'start' },
      { type: 'block_start', index: 0, block: { type: 'text' } },
      { type: 'block_delta', index: 0, delta: { type: 'text', text: 'Checking.' } },
      { type: 'block_stop', index: 0 },
      { type: 'block_start', index: 1, block: { type: 'tool_call', id: 'toolu_a', name: 'get_weather' } },
      { type: 'block_delta', index: 1, delta: { type: 'arguments', partialJson: '{"city":' } },
      { type: 'block_delta', index: 1, delta: { type: 'arguments', partialJson: '"Paris"}' } },
      { type: 'block_stop', index: 1 },
      { type: 'block_start', index: 2, block: { type: 'tool_call', id: 'toolu_b', name: 'get_time' } },
      { type: 'block_delta', index: 2, delta: { type: 'arguments', partialJson: '{}' } },
      { type: 'block_stop', index: 2 },
      { type: 'finish', stopReason: 'tool_use' },
    ];
    const text = encodeStream(chatCodec, events, encodeCtx());
    expect(checkChatStream(text)).to.deep.equal([]);
    const calls = sseData(text).flatMap((c) => ((c['choices'] as Array<{ delta: { tool_calls?: unknown[] } }>)[0]?.delta.tool_calls ?? []));
    expect(calls).to.deep.equal([
      { index: 0, id: 'toolu_a', type: 'function', function: { name: 'get_weather', arguments: '' } },
      { index: 0, function: { arguments: '{"city":' } },
      { index: 0, function: { arguments: '"Paris"}' } },
      { index: 1, id: 'toolu_b', type: 'function', function: { name: 'get_time', arguments: '' } },
      { index: 1, function: { arguments: '{}' } },
    ]);
    expect(sseData(text).at(-1)).to.have.nested.property('choices[0].finish_reason', 'tool_calls');
  });

  it('an error mid-stream is an error object with no [DONE]; end() adds nothing', () => {
    const events: IRStreamEvent[] = [...TEXT_EVENTS.slice(0, 7), { type: 'error', error: { status: 529, kind: 'overloaded', message: 'Overloaded' } }];
    const text = encodeStream(chatCodec, events, encodeCtx({ includeUsage: true }));
    expect(checkChatStream(text)).to.deep.equal([]);
    expect(sseData(text).at(-1)).to.deep.equal({ error: { message: 'Overloaded', type: 'service_unavailable_error', param: null, code: null } });
    expect(text).not.to.contain('[DONE]');
  });

  it('a stream that ends without finish gets an error object instead of a clean [DONE]', () => {
    const text = encodeStream(chatCodec, TEXT_EVENTS.slice(0, 7), encodeCtx());
    expect(checkChatStream(text)).to.deep.equal([]);
    expect(sseData(text).at(-1)).to.have.nested.property('error.type', 'server_error');
  });

  describe('rejects impossible sequences', () => {
    const cases: Array<[string, IRStreamEvent[]]> = [
      ['event before start', [{ type: 'block_start', index: 0, block: { type: 'text' } }]],
      ['second start', [{ type: 'start' }, { type: 'start' }]],
      ['delta for a block that is not open', [{ type: 'start' }, { type: 'block_delta', index: 0, delta: { type: 'text', text: 'x' } }]],
      ['block opened while another is open', [{ type: 'start' }, { type: 'block_start', index: 0, block: { type: 'text' } }, { type: 'block_start', index: 1, block: { type: 'text' } }]],
      ['block index not increasing', [{ type: 'start' }, { type: 'block_start', index: 1, block: { type: 'text' } }, { type: 'block_stop', index: 1 }, { type: 'block_start', index: 0, block: { type: 'text' } }]],
      ['arguments delta into a text block', [{ type: 'start' }, { type: 'block_start', index: 0, block: { type: 'text' } }, { type: 'block_delta', index: 0, delta: { type: 'arguments', partialJson: '{}' } }]],
      ['finish with a block open', [{ type: 'start' }, { type: 'block_start', index: 0, block: { type: 'text' } }, { type: 'finish', stopReason: 'end_turn' }]],
      ['content after finish', [{ type: 'start' }, { type: 'finish', stopReason: 'end_turn' }, { type: 'block_start', index: 0, block: { type: 'text' } }]],
      ['events after an error', [{ type: 'start' }, { type: 'error', error: { status: 500, kind: 'server_error', message: 'x' } }, { type: 'usage', usage: {} }]],
    ];
    for (const [name, events] of cases) {
      it(name, () => {
        const encoder = chatCodec.createStreamEncoder(encodeCtx());
        const last = events.at(-1)!;
        for (const event of events.slice(0, -1)) encoder.push(event);
        expect(() => encoder.push(last)).to.throw(/out of order/);
      });
    }
  });
});
