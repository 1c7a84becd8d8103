// Responses codec: stream decoding of every SSE fixture, stream encoding as a state machine, grammar.
import { expect } from 'chai';
import type { IRStreamEvent } from '../../../src/protocols/ir.ts';
import { responsesCodec } from '../../../src/protocols/responses/index.ts';
import { checkResponsesStream } from '../../helpers/grammar/responses.ts';
import { collectStream } from '../../helpers/ir-gen.ts';
import { decodeStream, encodeCtx, encodeStream, sseData } from '../../helpers/codec.ts';
import { fixtureText } from '../../helpers/fixtures.ts';

function decodeFixture(name: string): IRStreamEvent[] {
  return decodeStream(responsesCodec, fixtureText('responses', 'streams', `${name}.txt`));
}

const frame = (data: Record<string, unknown>): string => `event: ${String(data['type'])}\ndata: ${JSON.stringify(data)}\n\n`;

describe('responses codec: stream decoder (fixtures)', () => {
  it('text stream', () => {
    const events = decodeFixture('text');
    expect(events[0]).to.deep.equal({ type: 'start', id: 'resp_67c9fdcecf488190bdd9a0409de3a1ec07b8b0ad4e5eb654', model: 'gpt-4.1-2025-04-14' });
    expect(events[1]).to.deep.equal({ type: 'block_start', index: 0, block: { type: 'text' } });
    expect(events.slice(-3)).to.deep.equal([
      { type: 'block_stop', index: 0 },
      { type: 'usage', usage: { inputTokens: 37, outputTokens: 11 } },
      { type: 'finish', stopReason: 'end_turn' },
    ]);
    expect(collectStream(events).content).to.deep.equal([{ type: 'text', text: 'Hi there! How can I help you today?' }]);
  });

  it('two function calls → two tool_call blocks, tool_use', () => {
    const collected = collectStream(decodeFixture('function-call'));
    expect(collected.content).to.deep.equal([
      { type: 'tool_call', id: 'call_Ou2PdkRVgXJcRxjmP2V6QNfd', name: 'get_weather', arguments: '{"location":"Paris, France"}' },
      { type: 'tool_call', id: 'call_9BxH4nYDW8WpQKqT6m7k1Zsa', name: 'get_weather', arguments: '{"location":"Boston, MA"}' },
    ]);
    expect(collected.stopReason).to.equal('tool_use');
  });

  it('reasoning summaries (two parts) + encrypted_content → one reasoning block with an OpenAI signature', () => {
    const collected = collectStream(decodeFixture('reasoning'));
    expect(collected.content[0]).to.deep.equal({
      type: 'reasoning',
      text: '**Crafting a haiku**\n\nThe user wants 5-7-5 syllables about recursion.\n\n**Checking syllables**\n\nCounting each line.',
      signature: { vendor: 'openai', value: 'gAAAAABooQHEnT0c3lG2x9uLq0RkD5N4y3z1wY5eXfQh8nM2bC7dA6sP1oK9jI4uH3gF2eD1cB0aZ9yX8wV7uT6sR5qP4o==' },
    });
    expect(collected.content[1]).to.deep.equal({ type: 'text', text: 'Function calls itself,\nsmaller steps until the base—\nthe stack unwinds home.' });
    expect(collected.usage).to.deep.equal({ inputTokens: 81, outputTokens: 1035, cacheReadTokens: 64, reasoningTokens: 1002 });
  });

  it('response.failed → error event', () => {
    expect(decodeFixture('failed').at(-1)).to.deep.equal({
      type: 'error',
      error: { status: 500, kind: 'server_error', code: 'server_error', message: 'The model produced invalid content. Consider modifying your prompt if you are seeing this error persistently.' },
    });
  });

  it('a stream cut before the terminal event ends with a 502 error', () => {
    const text = fixtureText('responses', 'streams', 'text.txt').split('event: response.completed')[0] ?? '';
    expect(decodeStream(responsesCodec, text).at(-1)).to.deep.include({ type: 'error', error: { status: 502, kind: 'server_error', message: 'The upstream stream was cut before the response completed' } });
  });
});

describe('responses codec: stream decoder (edge cases)', () => {
  it('an `error` event is an error (rate limit → 429)', () => {
    const events = decodeStream(responsesCodec, frame({ type: 'response.created', sequence_number: 0, response: { id: 'resp_1' } }) + frame({ type: 'error', sequence_number: 1, code: 'rate_limit_exceeded', message: 'slow down', param: null }));
    expect(events.at(-1)).to.deep.equal({ type: 'error', error: { status: 429, kind: 'rate_limit', message: 'slow down', code: 'rate_limit_exceeded' } });
  });

  it('arguments that only arrive in .done (no deltas) are still emitted; incomplete → max_tokens', () => {
    const text =
      frame({ type: 'response.created', response: { id: 'r' } }) +
      frame({ type: 'response.output_item.added', output_index: 0, item: { type: 'function_call', id: 'fc_1', call_id: 'c1', name: 'f', arguments: '' } }) +
      frame({ type: 'response.function_call_arguments.done', item_id: 'fc_1', output_index: 0, arguments: '{"a":1}' }) +
      frame({ type: 'response.output_item.done', output_index: 0, item: { type: 'function_call', id: 'fc_1', call_id: 'c1', name: 'f', arguments: '{"a":1}' } }) +
      frame({ type: 'response.incomplete', response: { id: 'r', status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } } });
    const collected = collectStream(decodeStream(responsesCodec, text));
    expect(collected.content).to.deep.equal([{ type: 'tool_call', id: 'c1', name: 'f', arguments: '{"a":1}' }]);
    expect(collected.stopReason).to.equal('max_tokens');
  });

  it('text that only arrives in output_text.done (no deltas) is still emitted once', () => {
    const item = { type: 'message', id: 'msg_1', role: 'assistant', status: 'in_progress', content: [] };
    const ids = { item_id: 'msg_1', output_index: 0, content_index: 0 };
    const text =
      frame({ type: 'response.created', response: { id: 'r' } }) +
      frame({ type: 'response.output_item.added', output_index: 0, item }) +
      frame({ type: 'response.content_part.added', ...ids, part: { type: 'output_text', text: '', annotations: [] } }) +
      frame({ type: 'response.output_text.done', ...ids, text: 'whole answer' }) +
      frame({ type: 'response.content_part.done', ...ids, part: { type: 'output_text', text: 'whole answer', annotations: [] } }) +
      frame({ type: 'response.output_item.done', output_index: 0, item: { ...item, status: 'completed' } }) +
      frame({ type: 'response.completed', response: { id: 'r', status: 'completed' } });
    expect(collectStream(decodeStream(responsesCodec, text)).content).to.deep.equal([{ type: 'text', text: 'whole answer' }]);
  });

  it('hosted-tool and annotation events are skipped; a trailing [DONE] is fine', () => {
    const text = fixtureText('responses', 'streams', 'text.txt').replace(
      'event: response.output_item.added',
      'event: response.web_search_call.searching\ndata: {"type":"response.web_search_call.searching","item_id":"ws_1","output_index":0,"sequence_number":2}\n\nevent: response.output_item.added',
    );
    const events = decodeStream(responsesCodec, `${text}data: [DONE]\n\n`);
    expect(events.at(-1)).to.deep.equal({ type: 'finish', stopReason: 'end_turn' });
  });
});

const EVENTS: IRStreamEvent[] = [
  { type: 'start', id: 'msg_01', model: 'claude', usage: { inputTokens: 30 } },
  { type: 'block_start', index: 0, block: { type: 'reasoning' } },
  { type: 'block_delta', index: 0, delta: { type: 'reasoning', text: 'Let me ' } },
  { type: 'block_delta', index: 0, delta: { type: 'reasoning', text: 'think.' } },
  { type: 'block_delta', index: 0, delta: { type: 'signature', signature: { vendor: 'anthropic', value: 'EqQB' } } },
  { type: 'block_stop', index: 0 },
  { type: 'block_start', index: 1, block: { type: 'text' } },
  { type: 'block_delta', index: 1, delta: { type: 'text', text: 'Calling ' } },
  { type: 'block_delta', index: 1, delta: { type: 'text', text: 'now.' } },
  { type: 'block_stop', index: 1 },
  { type: 'block_start', index: 2, block: { type: 'tool_call', id: 'toolu_9', name: 'get_weather' } },
  { type: 'block_delta', index: 2, delta: { type: 'arguments', partialJson: '{"city":' } },
  { type: 'block_delta', index: 2, delta: { type: 'arguments', partialJson: '"Paris"}' } },
  { type: 'block_stop', index: 2 },
  { type: 'usage', usage: { outputTokens: 12 } },
  { type: 'finish', stopReason: 'tool_use' },
];

describe('responses codec: stream encoder', () => {
  it('reasoning, text and a function call: the full event sequence with sequence numbers', () => {
    const text = encodeStream(responsesCodec, EVENTS, encodeCtx({}, 'gpt-5'));
    expect(checkResponsesStream(text)).to.deep.equal([]);
    const events = sseData(text);
    expect(events.map((e) => e['type'])).to.deep.equal([
      'response.created', 'response.in_progress',
      'response.output_item.added', 'response.reasoning_summary_part.added', 'response.reasoning_summary_text.delta', 'response.reasoning_summary_text.delta',
      'response.reasoning_summary_text.done', 'response.reasoning_summary_part.done', 'response.output_item.done',
      'response.output_item.added', 'response.content_part.added', 'response.output_text.delta', 'response.output_text.delta',
      'response.output_text.done', 'response.content_part.done', 'response.output_item.done',
      'response.output_item.added', 'response.function_call_arguments.delta', 'response.function_call_arguments.delta',
      'response.function_call_arguments.done', 'response.output_item.done',
      'response.completed',
    ]);
    expect(events.map((e) => e['sequence_number'])).to.deep.equal(events.map((_e, i) => i));
    const completed = events.at(-1)?.['response'] as Record<string, unknown>;
    expect(completed).to.deep.include({ status: 'completed', model: 'gpt-5' });
    expect(completed['usage']).to.deep.include({ input_tokens: 30, output_tokens: 12, total_tokens: 42 });
    const output = completed['output'] as Array<Record<string, unknown>>;
    expect(output[0]).to.deep.include({ type: 'reasoning', encrypted_content: 'gwsig:anthropic:EqQB', summary: [{ type: 'summary_text', text: 'Let me think.' }] });
    expect(output[1]?.['content']).to.deep.equal([{ type: 'output_text', annotations: [], logprobs: [], text: 'Calling now.' }]);
    expect(output[2]).to.deep.include({ type: 'function_call', call_id: 'toolu_9', name: 'get_weather', arguments: '{"city":"Paris"}', status: 'completed' });
  });

  it('the created/in_progress skeletons have status in_progress, empty output, null usage', () => {
    const [created, progress] = sseData(encodeStream(responsesCodec, EVENTS, encodeCtx()));
    for (const event of [created, progress]) expect(event?.['response']).to.deep.include({ status: 'in_progress', output: [], usage: null });
  });

  it('max_tokens → response.incomplete with incomplete_details; usage after finish still counted', () => {
    const events: IRStreamEvent[] = [...EVENTS.slice(0, 10), { type: 'finish', stopReason: 'max_tokens' }, { type: 'usage', usage: { outputTokens: 64 } }];
    const text = encodeStream(responsesCodec, events, encodeCtx());
    expect(checkResponsesStream(text)).to.deep.equal([]);
    const last = sseData(text).at(-1)!;
    expect(last['type']).to.equal('response.incomplete');
    expect(last['response']).to.deep.include({ status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } });
    expect(last).to.have.nested.property('response.usage.output_tokens', 64);
  });

  it('an error mid-item → response.failed with {code, message}; nothing after', () => {
    const events: IRStreamEvent[] = [...EVENTS.slice(0, 8), { type: 'error', error: { status: 429, kind: 'rate_limit', message: 'Too many requests' } }];
    const encoder = responsesCodec.createStreamEncoder(encodeCtx());
    const text = events.map((e) => encoder.push(e)).join('') + encoder.end();
    expect(checkResponsesStream(text)).to.deep.equal([]);
    expect(sseData(text).at(-1)).to.deep.include({ type: 'response.failed' });
    expect(sseData(text).at(-1)).to.have.nested.property('response.error').that.deep.equals({ code: 'rate_limit_exceeded', message: 'Too many requests' });
    expect(() => encoder.push({ type: 'usage', usage: {} })).to.throw(/out of order/);
  });

  it('an error before anything else still opens the response first', () => {
    const text = encodeStream(responsesCodec, [{ type: 'error', error: { status: 502, kind: 'server_error', message: 'upstream down' } }], encodeCtx());
    expect(checkResponsesStream(text)).to.deep.equal([]);
    expect(sseData(text).map((e) => e['type'])).to.deep.equal(['response.created', 'response.in_progress', 'response.failed']);
  });

  it('end() without finish → response.failed (never a stream that looks complete)', () => {
    const text = encodeStream(responsesCodec, EVENTS.slice(0, 9), encodeCtx());
    expect(checkResponsesStream(text)).to.deep.equal([]);
    expect(sseData(text).at(-1)).to.have.nested.property('response.error.code', 'server_error');
  });

  it('a redacted reasoning block carries its payload in encrypted_content from the start', () => {
    const events: IRStreamEvent[] = [{ type: 'start' }, { type: 'block_start', index: 0, block: { type: 'reasoning', redacted: 'RED' } }, { type: 'block_stop', index: 0 }, { type: 'finish', stopReason: 'end_turn' }];
    const data = sseData(encodeStream(responsesCodec, events, encodeCtx()));
    expect(data[2]).to.have.nested.property('item.encrypted_content', 'gwsig:redacted:RED');
    expect(data[3]).to.have.nested.property('item.summary').that.deep.equals([]);
  });

  describe('rejects impossible sequences', () => {
    const text0: IRStreamEvent = { type: 'block_start', index: 0, block: { type: 'text' } };
    const cases: Array<[string, IRStreamEvent[]]> = [
      ['content before start', [text0]],
      ['delta for a block that is not open', [{ type: 'start' }, { type: 'block_delta', index: 3, delta: { type: 'text', text: 'x' } }]],
      ['block opened while another is open', [{ type: 'start' }, text0, { type: 'block_start', index: 1, block: { type: 'text' } }]],
      ['reasoning delta into a text item', [{ type: 'start' }, text0, { type: 'block_delta', index: 0, delta: { type: 'reasoning', text: 'x' } }]],
      ['finish with an item open', [{ type: 'start' }, text0, { type: 'finish', stopReason: 'end_turn' }]],
      ['block after finish', [{ type: 'start' }, { type: 'finish', stopReason: 'end_turn' }, text0]],
      ['second start', [{ type: 'start' }, { type: 'start' }]],
    ];
    for (const [name, events] of cases) {
      it(name, () => {
        const encoder = responsesCodec.createStreamEncoder(encodeCtx());
        for (const event of events.slice(0, -1)) encoder.push(event);
        expect(() => encoder.push(events.at(-1)!)).to.throw();
      });
    }
  });
});
