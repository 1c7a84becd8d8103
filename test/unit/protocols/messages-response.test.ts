// Anthropic Messages codec: responses, stop-reason and usage tables (§8.12, §8.13), error decoding.
import { expect } from 'chai';
import { CodecError } from '../../../src/protocols/codec.ts';
import type { ResponseEncodeContext } from '../../../src/protocols/codec.ts';
import type { IRResponse, IRStopReason } from '../../../src/protocols/ir.ts';
import { messagesCodec } from '../../../src/protocols/messages/index.ts';
import { fixtureJson } from '../../helpers/fixtures.ts';

const decode = (name: string): IRResponse => messagesCodec.decodeResponse(fixtureJson('messages', 'responses', name));
const ctx: ResponseEncodeContext = { request: { model: 'alias', messages: [], stream: false }, clientModel: 'my-alias' };

function response(partial: Partial<IRResponse>): IRResponse {
  return { id: 'chatcmpl-1', model: 'up', created: 1, content: [], stopReason: 'end_turn', ...partial };
}

describe('messages codec: decodeResponse', () => {
  it('decodes a text response', () => {
    const ir = decode('text.json');
    expect(ir).to.deep.include({ id: 'msg_013Zva2CMHLNnXjNJJKqJ2EF', model: 'claude-sonnet-4-5-20250929', stopReason: 'end_turn' });
    expect(ir.content).to.deep.equal([{ type: 'text', text: 'Hi! My name is Claude. How can I help you today?' }]);
    expect(ir.usage).to.deep.equal({ inputTokens: 10, outputTokens: 17, cacheReadTokens: 0, cacheWriteTokens: 0 });
    expect(ir.created).to.be.a('number');
  });

  it('decodes parallel tool_use blocks as JSON-string arguments', () => {
    const ir = decode('tool-use.json');
    expect(ir.stopReason).to.equal('tool_use');
    expect(ir.content.slice(1)).to.deep.equal([
      { type: 'tool_call', id: 'toolu_01A09q90qw90lq917835lq9', name: 'get_weather', arguments: '{"location":"Paris, France","unit":"celsius"}' },
      { type: 'tool_call', id: 'toolu_01B18r81rx81mr826724mr8', name: 'get_time', arguments: '{"timezone":"Europe/Paris"}' },
    ]);
  });

  it('decodes thinking with its Anthropic signature and redacted thinking', () => {
    const [thinking, redacted, text] = decode('thinking.json').content;
    expect(thinking).to.nested.include({ type: 'reasoning', 'signature.vendor': 'anthropic' });
    expect(redacted).to.include({ type: 'reasoning', text: '' }).and.to.have.property('redacted');
    expect(text).to.deep.equal({ type: 'text', text: 'Yes, take an umbrella: rain is likely from 2 pm.' });
  });

  it('keeps the matched stop sequence, maps max_tokens and refusal', () => {
    expect(decode('stop-sequence.json')).to.include({ stopReason: 'stop_sequence', stopSequence: '3.' });
    expect(decode('max-tokens.json').stopReason).to.equal('max_tokens');
    expect(decode('refusal.json')).to.deep.include({ stopReason: 'content_filter', content: [] });
  });

  it('adds cache reads and writes into IR input tokens (Anthropic input excludes them)', () => {
    expect(decode('cache-usage.json').usage).to.deep.equal({ inputTokens: 50 + 248 + 1800, outputTokens: 12, cacheReadTokens: 1800, cacheWriteTokens: 248 });
  });

  it('maps every stop_reason (§8.12)', () => {
    const table: Record<string, IRStopReason> = {
      end_turn: 'end_turn',
      max_tokens: 'max_tokens',
      stop_sequence: 'stop_sequence',
      tool_use: 'tool_use',
      pause_turn: 'pause_turn',
      refusal: 'content_filter',
      model_context_window_exceeded: 'context_window_exceeded',
    };
    for (const [anthropic, ir] of Object.entries(table)) {
      const body = { id: 'm', model: 'x', content: [], stop_reason: anthropic };
      expect(messagesCodec.decodeResponse(body).stopReason, anthropic).to.equal(ir);
      expect(messagesCodec.encodeResponse(response({ stopReason: ir }), ctx).stop_reason, ir).to.equal(anthropic);
    }
  });

  it('skips server-tool blocks and rejects bodies that are not messages', () => {
    const body = { id: 'm', model: 'x', content: [{ type: 'server_tool_use', id: 's', name: 'web_search', input: {} }, { type: 'text', text: 'ok' }], stop_reason: 'end_turn' };
    expect(messagesCodec.decodeResponse(body).content).to.deep.equal([{ type: 'text', text: 'ok' }]);
    expect(() => messagesCodec.decodeResponse({ error: 'x' })).to.throw(CodecError).with.property('status', 502);
  });
});

describe('messages codec: encodeResponse', () => {
  it('writes a full Anthropic message with the client model and a msg_ id', () => {
    const body = messagesCodec.encodeResponse(
      response({
        content: [
          { type: 'reasoning', text: 'hmm', signature: { vendor: 'anthropic', value: 'sig' } },
          { type: 'text', text: 'Hello' },
          { type: 'tool_call', id: 'call_1', name: 'f', arguments: '{"a":1}' },
        ],
        stopReason: 'tool_use',
        usage: { inputTokens: 100, outputTokens: 20, cacheReadTokens: 30, cacheWriteTokens: 10 },
      }),
      ctx,
    );
    expect(body).to.deep.equal({
      id: 'msg_chatcmpl-1',
      type: 'message',
      role: 'assistant',
      model: 'my-alias',
      content: [
        { type: 'thinking', thinking: 'hmm', signature: 'sig' },
        { type: 'text', text: 'Hello' },
        { type: 'tool_use', id: 'call_1', name: 'f', input: { a: 1 } },
      ],
      stop_reason: 'tool_use',
      stop_sequence: null,
      usage: { input_tokens: 60, output_tokens: 20, cache_creation_input_tokens: 10, cache_read_input_tokens: 30 },
    });
  });

  it('never hands another vendor’s signature to an Anthropic client', () => {
    const body = messagesCodec.encodeResponse(response({ content: [{ type: 'reasoning', text: 't', signature: { vendor: 'gemini', value: 'g' } }] }), ctx);
    expect(body.content).to.deep.equal([{ type: 'thinking', thinking: 't', signature: '' }]);
  });

  it('keeps msg_ ids, echoes the stop sequence, zero usage when unknown', () => {
    const body = messagesCodec.encodeResponse(response({ id: 'msg_abc', stopReason: 'stop_sequence', stopSequence: 'END' }), ctx);
    expect(body).to.include({ id: 'msg_abc', stop_reason: 'stop_sequence', stop_sequence: 'END' });
    expect(body.usage).to.deep.equal({ input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 });
  });

  it('answers 502 when the upstream produced arguments that are not JSON', () => {
    const bad = response({ content: [{ type: 'tool_call', id: 'c', name: 'f', arguments: '{"a":' }] });
    expect(() => messagesCodec.encodeResponse(bad, ctx)).to.throw(CodecError).with.property('status', 502);
  });

  it('re-encodes every response fixture to an equivalent body', () => {
    for (const name of ['text.json', 'tool-use.json', 'thinking.json', 'max-tokens.json', 'stop-sequence.json', 'cache-usage.json', 'refusal.json']) {
      const original = fixtureJson('messages', 'responses', name) as Record<string, unknown>;
      const body = messagesCodec.encodeResponse(decode(name), { ...ctx, clientModel: original.model as string });
      const usage = original.usage as Record<string, unknown>;
      const { service_tier: _tier, ...usageWithoutTier } = usage;
      expect(body, name).to.deep.equal({ ...original, usage: usageWithoutTier });
    }
  });
});

describe('messages codec: decodeError', () => {
  it('decodes Anthropic error bodies', () => {
    expect(messagesCodec.decodeError(529, fixtureJson('messages', 'responses', 'error-overloaded.json'))).to.deep.equal({ status: 529, kind: 'overloaded', message: 'Overloaded' });
    expect(messagesCodec.decodeError(400, fixtureJson('messages', 'responses', 'error-invalid-request.json'))).to.deep.equal({
      status: 400,
      kind: 'invalid_request',
      message: 'max_tokens: Field required',
    });
  });

  it('decodes Gemini and OpenAI shapes, JSON text, plain text and empty bodies', () => {
    expect(messagesCodec.decodeError(429, { error: { code: 429, message: 'quota', status: 'RESOURCE_EXHAUSTED' } })).to.include({ kind: 'rate_limit', message: 'quota' });
    expect(messagesCodec.decodeError(404, { error: { message: 'no model', type: 'invalid_request_error', param: 'model', code: 'model_not_found' } })).to.deep.equal({
      status: 404,
      kind: 'not_found',
      message: 'no model',
      code: 'model_not_found',
      param: 'model',
    });
    expect(messagesCodec.decodeError(500, '{"type":"error","error":{"type":"api_error","message":"boom"}}')).to.include({ kind: 'server_error', message: 'boom' });
    expect(messagesCodec.decodeError(502, '<html>Bad gateway</html>')).to.deep.equal({ status: 502, kind: 'server_error', message: '<html>Bad gateway</html>' });
    expect(messagesCodec.decodeError(503, undefined)).to.deep.equal({ status: 503, kind: 'overloaded', message: 'upstream returned HTTP 503' });
  });
});
