// Chat Completions codec: non-stream responses (fixtures ⇄ IR), finish-reason and usage tables, upstream errors.
import { expect } from 'chai';
import { chatCodec } from '../../../src/protocols/chat/index.ts';
import { CodecError } from '../../../src/protocols/codec.ts';
import type { IRResponse, IRStopReason } from '../../../src/protocols/ir.ts';
import { encodeCtx } from '../../helpers/codec.ts';
import { fixtureJson } from './openai-helpers.ts';

function decode(name: string): IRResponse {
  return chatCodec.decodeResponse(fixtureJson('chat', 'responses', name));
}

const BASE: IRResponse = { id: 'msg_01', model: 'claude-x', created: 1_750_000_000, content: [{ type: 'text', text: 'ok' }], stopReason: 'end_turn' };

describe('chat codec: decodeResponse (fixtures)', () => {
  it('text with cached prompt tokens', () => {
    expect(decode('text')).to.deep.equal({
      id: 'chatcmpl-B9MBs8CjcvOU2jLn4n570S5qMJKcT',
      model: 'gpt-4o-2024-08-06',
      created: 1741569952,
      content: [{ type: 'text', text: "Bonjour ! Comment puis-je vous aider aujourd'hui ?" }],
      stopReason: 'end_turn',
      usage: { inputTokens: 1117, outputTokens: 12, cacheReadTokens: 1024 },
    });
  });

  it('parallel tool calls', () => {
    const ir = decode('tool-calls');
    expect(ir.stopReason).to.equal('tool_use');
    expect(ir.content).to.deep.equal([
      { type: 'tool_call', id: 'call_Ou2PdkRVgXJcRxjmP2V6QNfd', name: 'get_weather', arguments: '{"location":"Paris, France"}' },
      { type: 'tool_call', id: 'call_9BxH4nYDW8WpQKqT6m7k1Zsa', name: 'get_weather', arguments: '{"location":"Boston, MA"}' },
    ]);
  });

  it('reasoning_content (DeepSeek-style) → reasoning block before the text; reasoning tokens', () => {
    const ir = decode('reasoning-content');
    expect(ir.content.map((block) => block.type)).to.deep.equal(['reasoning', 'text']);
    expect(ir.content[0]).to.have.property('text').that.match(/^Let me spell it out/);
    expect(ir.usage).to.deep.equal({ inputTokens: 17, outputTokens: 96, reasoningTokens: 81 });
  });

  it('length → max_tokens', () => {
    expect(decode('length').stopReason).to.equal('max_tokens');
  });

  it('tool calls reported with finish_reason "stop" count as tool_use', () => {
    const body = fixtureJson('chat', 'responses', 'tool-calls');
    const choice = (body['choices'] as Array<Record<string, unknown>>)[0]!;
    choice['finish_reason'] = 'stop';
    expect(chatCodec.decodeResponse(body).stopReason).to.equal('tool_use');
  });

  it('an upstream body without choices is a 502 CodecError', () => {
    expect(() => chatCodec.decodeResponse({ id: 'x', choices: [] }))
      .to.throw(CodecError)
      .with.property('status', 502);
  });
});

describe('chat codec: encodeResponse', () => {
  it('emits a full chat.completion with the client model and a chatcmpl id', () => {
    const body = chatCodec.encodeResponse(
      { ...BASE, content: [{ type: 'reasoning', text: 'hmm', signature: { vendor: 'anthropic', value: 's' } }, { type: 'text', text: 'Hi' }, { type: 'text', text: ' there' }], usage: { inputTokens: 10, outputTokens: 5, cacheReadTokens: 4, reasoningTokens: 2 } },
      encodeCtx({}, 'gpt-4o'),
    );
    expect(body['id']).to.match(/^chatcmpl-[0-9a-f]{29}$/);
    expect(body).to.deep.include({ object: 'chat.completion', created: 1_750_000_000, model: 'gpt-4o' });
    expect(body['choices']).to.deep.equal([
      { index: 0, message: { role: 'assistant', content: 'Hi there', refusal: null, annotations: [], reasoning_content: 'hmm' }, logprobs: null, finish_reason: 'stop' },
    ]);
    expect(body['usage']).to.deep.equal({
      prompt_tokens: 10,
      completion_tokens: 5,
      total_tokens: 15,
      prompt_tokens_details: { cached_tokens: 4, audio_tokens: 0 },
      completion_tokens_details: { reasoning_tokens: 2, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
    });
  });

  it('tool calls: content null, tool_calls in order, finish_reason tool_calls; chatcmpl ids kept', () => {
    const body = chatCodec.encodeResponse(
      { ...BASE, id: 'chatcmpl-keep', stopReason: 'tool_use', content: [{ type: 'tool_call', id: 'toolu_1', name: 'f', arguments: '{"a":1}' }] },
      encodeCtx(),
    );
    expect(body['id']).to.equal('chatcmpl-keep');
    expect(body['choices']).to.deep.equal([
      {
        index: 0,
        message: { role: 'assistant', content: null, refusal: null, annotations: [], tool_calls: [{ id: 'toolu_1', type: 'function', function: { name: 'f', arguments: '{"a":1}' } }] },
        logprobs: null,
        finish_reason: 'tool_calls',
      },
    ]);
    expect(body).not.to.have.property('usage');
  });
});

describe('chat codec: mapping tables (protocols.md §8.12, §8.13)', () => {
  const finishFor = (stopReason: IRStopReason): unknown => {
    const body = chatCodec.encodeResponse({ ...BASE, stopReason }, encodeCtx());
    return (body['choices'] as Array<Record<string, unknown>>)[0]?.['finish_reason'];
  };
  const table: Array<[IRStopReason, string]> = [
    ['end_turn', 'stop'],
    ['stop_sequence', 'stop'],
    ['pause_turn', 'stop'],
    ['max_tokens', 'length'],
    ['context_window_exceeded', 'length'],
    ['tool_use', 'tool_calls'],
    ['content_filter', 'content_filter'],
  ];
  for (const [stop, finish] of table) it(`IR ${stop} → finish_reason ${finish}`, () => expect(finishFor(stop)).to.equal(finish));

  const back: Array<[string | null, IRStopReason]> = [
    ['stop', 'end_turn'],
    ['length', 'max_tokens'],
    ['tool_calls', 'tool_use'],
    ['function_call', 'tool_use'],
    ['content_filter', 'content_filter'],
    [null, 'end_turn'],
  ];
  for (const [finish, stop] of back) {
    it(`finish_reason ${String(finish)} → IR ${stop}`, () => {
      const body = { id: 'c', created: 1, model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: 'x' }, finish_reason: finish }] };
      expect(chatCodec.decodeResponse(body).stopReason).to.equal(stop);
    });
  }

  it('usage: prompt includes cache, completion includes reasoning (one-to-one with the IR)', () => {
    const usage = { prompt_tokens: 100, completion_tokens: 50, total_tokens: 150, prompt_tokens_details: { cached_tokens: 60, cache_write_tokens: 10 }, completion_tokens_details: { reasoning_tokens: 30 } };
    const ir = chatCodec.decodeResponse({ id: 'c', created: 1, model: 'm', choices: [{ index: 0, message: { content: 'x' }, finish_reason: 'stop' }], usage });
    expect(ir.usage).to.deep.equal({ inputTokens: 100, outputTokens: 50, cacheReadTokens: 60, cacheWriteTokens: 10, reasoningTokens: 30 });
    const encoded = chatCodec.encodeResponse({ ...BASE, usage: ir.usage! }, encodeCtx())['usage'];
    expect(encoded).to.deep.include({ prompt_tokens: 100, completion_tokens: 50, total_tokens: 150 });
    expect(encoded).to.have.nested.property('prompt_tokens_details.cache_write_tokens', 10);
  });
});

describe('chat codec: decodeError', () => {
  it('OpenAI error body keeps status, message, code and param', () => {
    const body = { error: { message: 'The model `gpt-9` does not exist', type: 'invalid_request_error', param: 'model', code: 'model_not_found' } };
    expect(chatCodec.decodeError(404, body)).to.deep.equal({ status: 404, kind: 'not_found', message: 'The model `gpt-9` does not exist', code: 'model_not_found', param: 'model' });
  });

  it('the HTTP status decides the kind (429, 503, 401, 500)', () => {
    expect(chatCodec.decodeError(429, { error: { message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded' } })).to.include({ kind: 'rate_limit', code: 'rate_limit_exceeded' });
    expect(chatCodec.decodeError(503, { error: { message: 'busy', type: 'service_unavailable_error' } })).to.include({ kind: 'overloaded', status: 503 });
    expect(chatCodec.decodeError(401, { error: { message: 'Incorrect API key', type: 'invalid_request_error', code: 'invalid_api_key' } })).to.include({ kind: 'authentication' });
    expect(chatCodec.decodeError(500, {})).to.deep.equal({ status: 500, kind: 'server_error', message: 'Upstream returned HTTP 500' });
  });

  it('other shapes: Anthropic, Gemini, vLLM, error strings, plain text, JSON text', () => {
    expect(chatCodec.decodeError(529, { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } })).to.include({ kind: 'overloaded', message: 'Overloaded' });
    expect(chatCodec.decodeError(400, [{ error: { code: 400, message: 'API key not valid', status: 'INVALID_ARGUMENT' } }])).to.include({ kind: 'invalid_request', message: 'API key not valid' });
    expect(chatCodec.decodeError(400, { object: 'error', message: 'max_tokens is too large', type: 'BadRequestError', code: 400 })).to.include({ message: 'max_tokens is too large' });
    expect(chatCodec.decodeError(502, { error: 'bad gateway' })).to.include({ kind: 'server_error', message: 'bad gateway' });
    expect(chatCodec.decodeError(504, '<html>Gateway Timeout</html>')).to.include({ kind: 'timeout', message: '<html>Gateway Timeout</html>' });
    expect(chatCodec.decodeError(403, '{"error":{"message":"Country not supported","code":"unsupported_country_region_territory"}}')).to.include({ kind: 'permission', code: 'unsupported_country_region_territory' });
  });

  it('in-band stream errors (no HTTP status) are classified by their type', () => {
    expect(chatCodec.decodeError(0, { error: { message: 'slow down', type: 'rate_limit_error' } })).to.include({ status: 429, kind: 'rate_limit' });
    expect(chatCodec.decodeError(200, { error: { message: 'oops', type: 'server_error' } })).to.include({ status: 500, kind: 'server_error' });
    expect(chatCodec.decodeError(0, { error: { message: '?', type: 'weird' } })).to.include({ status: 500, kind: 'server_error' });
  });
});
