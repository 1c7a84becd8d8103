// Gemini codec: responses, finish-reason and usage tables (§8.12, §8.13), error decoding.
import { expect } from 'chai';
import { CodecError } from '../../../src/protocols/codec.ts';
import type { ResponseEncodeContext } from '../../../src/protocols/codec.ts';
import { geminiCodec } from '../../../src/protocols/gemini/index.ts';
import type { IRResponse, IRStopReason } from '../../../src/protocols/ir.ts';
import { fixtureJson } from '../../helpers/fixtures.ts';

const decode = (name: string): IRResponse => geminiCodec.decodeResponse(fixtureJson('gemini', 'responses', name));
const ctx: ResponseEncodeContext = { request: { model: 'alias', messages: [], stream: false }, clientModel: 'my-gemini' };

function response(partial: Partial<IRResponse>): IRResponse {
  return { id: 'resp-1', model: 'up', created: 1, content: [], stopReason: 'end_turn', ...partial };
}

describe('gemini codec: decodeResponse', () => {
  it('decodes a text response', () => {
    const ir = decode('text.json');
    expect(ir).to.deep.include({ id: 'deO6aLe6Kd6a1MkP3oXv-QQ', model: 'gemini-2.5-flash', stopReason: 'end_turn' });
    expect(ir.content).to.deep.equal([{ type: 'text', text: 'AI learns patterns from data to make predictions or decisions.' }]);
    expect(ir.usage).to.deep.equal({ inputTokens: 8, outputTokens: 12 });
  });

  it('decodes parallel function calls: synthesised unique ids, signature kept, STOP + calls → tool_use, thoughts in output', () => {
    const ir = decode('function-call.json');
    expect(ir.stopReason).to.equal('tool_use');
    const [first, second] = ir.content;
    expect(first).to.deep.include({ type: 'tool_call', name: 'get_weather', arguments: '{"city":"Paris"}' });
    expect(first).to.nested.include({ 'signature.vendor': 'gemini' });
    expect(second).to.deep.include({ type: 'tool_call', name: 'get_time' }).and.not.have.property('signature');
    const ids = [first, second].map((b) => (b?.type === 'tool_call' ? b.id : ''));
    expect(ids[0]).to.match(/^call_[0-9a-f]{24}$/);
    expect(ids[0]).to.not.equal(ids[1]);
    expect(decode('function-call.json').content[0]).to.not.deep.equal(first);
    expect(ir.usage).to.deep.equal({ inputTokens: 96, outputTokens: 27 + 78, reasoningTokens: 78 });
  });

  it('decodes thought parts and a signature on the answer text', () => {
    const ir = decode('thought.json');
    expect(ir.content.map((b) => b.type)).to.deep.equal(['reasoning', 'reasoning', 'text']);
    expect(ir.content[0]).to.include({ type: 'reasoning' }).and.not.have.property('signature');
    expect(ir.content[1]).to.nested.include({ text: '', 'signature.vendor': 'gemini' });
    expect(ir.usage).to.deep.equal({ inputTokens: 11, outputTokens: 45 + 312, reasoningTokens: 312, cacheReadTokens: 0 });
  });

  it('maps a blocked prompt to content_filter with empty content', () => {
    expect(decode('blocked-prompt.json')).to.deep.include({ content: [], stopReason: 'content_filter', usage: { inputTokens: 9, outputTokens: 0 } });
  });

  it('maps MAX_TOKENS and SAFETY; cached tokens are part of the prompt', () => {
    expect(decode('max-tokens.json')).to.deep.include({ stopReason: 'max_tokens', usage: { inputTokens: 1200, outputTokens: 16, cacheReadTokens: 1024 } });
    expect(decode('safety.json')).to.deep.include({ stopReason: 'content_filter', content: [] });
  });

  it('maps every finishReason (§8.12)', () => {
    const table: Record<string, IRStopReason> = {
      STOP: 'end_turn',
      MAX_TOKENS: 'max_tokens',
      MALFORMED_FUNCTION_CALL: 'end_turn',
      UNEXPECTED_TOOL_CALL: 'end_turn',
      TOO_MANY_TOOL_CALLS: 'end_turn',
      FINISH_REASON_UNSPECIFIED: 'end_turn',
    };
    for (const reason of ['SAFETY', 'RECITATION', 'LANGUAGE', 'BLOCKLIST', 'PROHIBITED_CONTENT', 'SPII', 'IMAGE_SAFETY', 'IMAGE_PROHIBITED_CONTENT', 'IMAGE_RECITATION', 'IMAGE_OTHER', 'NO_IMAGE', 'OTHER']) {
      table[reason] = 'content_filter';
    }
    for (const [finishReason, stop] of Object.entries(table)) {
      const body = { candidates: [{ content: { role: 'model', parts: [{ text: 'x' }] }, finishReason }] };
      expect(geminiCodec.decodeResponse(body).stopReason, finishReason).to.equal(stop);
    }
    const into: Record<IRStopReason, string> = {
      end_turn: 'STOP',
      stop_sequence: 'STOP',
      tool_use: 'STOP',
      pause_turn: 'STOP',
      max_tokens: 'MAX_TOKENS',
      context_window_exceeded: 'MAX_TOKENS',
      content_filter: 'SAFETY',
    };
    for (const [stop, finishReason] of Object.entries(into)) {
      const body = geminiCodec.encodeResponse(response({ stopReason: stop as IRStopReason }), ctx) as { candidates: Array<{ finishReason: string }> };
      expect(body.candidates[0]?.finishReason, stop).to.equal(finishReason);
    }
  });

  it('accepts a buffered JSON-array stream body and rejects non-responses with 502', () => {
    const chunks = [
      { candidates: [{ content: { role: 'model', parts: [{ text: 'Hel' }] } }], responseId: 'r' },
      { candidates: [{ content: { role: 'model', parts: [{ text: 'lo' }] }, finishReason: 'STOP' }], usageMetadata: { promptTokenCount: 2, candidatesTokenCount: 1 }, responseId: 'r' },
    ];
    expect(geminiCodec.decodeResponse(chunks)).to.deep.include({ content: [{ type: 'text', text: 'Hel' }, { type: 'text', text: 'lo' }], stopReason: 'end_turn', id: 'r' });
    expect(() => geminiCodec.decodeResponse('nope')).to.throw(CodecError).with.property('status', 502);
  });
});

describe('gemini codec: encodeResponse', () => {
  it('writes one candidate with model parts, usageMetadata per §8.13, modelVersion = client model', () => {
    const body = geminiCodec.encodeResponse(
      response({
        content: [
          { type: 'reasoning', text: 'hmm', signature: { vendor: 'anthropic', value: 'a' } },
          { type: 'text', text: 'Hello' },
          { type: 'tool_call', id: 'toolu_1', name: 'f', arguments: '{"a":1}', signature: { vendor: 'gemini', value: 'g' } },
        ],
        stopReason: 'tool_use',
        usage: { inputTokens: 100, outputTokens: 30, reasoningTokens: 10, cacheReadTokens: 40 },
      }),
      ctx,
    );
    expect(body).to.deep.equal({
      candidates: [
        {
          content: {
            role: 'model',
            parts: [{ text: 'hmm', thought: true }, { text: 'Hello' }, { functionCall: { id: 'toolu_1', name: 'f', args: { a: 1 } }, thoughtSignature: 'g' }],
          },
          finishReason: 'STOP',
          index: 0,
        },
      ],
      usageMetadata: { promptTokenCount: 100, candidatesTokenCount: 20, totalTokenCount: 130, thoughtsTokenCount: 10, cachedContentTokenCount: 40 },
      modelVersion: 'my-gemini',
      responseId: 'resp-1',
    });
  });

  it('answers 502 when upstream tool arguments are not JSON', () => {
    const bad = response({ content: [{ type: 'tool_call', id: 'c', name: 'f', arguments: '{' }] });
    expect(() => geminiCodec.encodeResponse(bad, ctx)).to.throw(CodecError).with.property('status', 502);
  });

  it('re-encodes response fixtures to equivalent bodies', () => {
    for (const name of ['text.json', 'max-tokens.json', 'thought.json']) {
      const original = fixtureJson('gemini', 'responses', name) as { candidates: Array<{ content: unknown; finishReason: string }>; usageMetadata: Record<string, number> };
      const body = geminiCodec.encodeResponse(decode(name), ctx) as typeof original;
      expect(body.candidates[0]?.content, name).to.deep.equal(original.candidates[0]?.content);
      expect(body.candidates[0]?.finishReason, name).to.equal(original.candidates[0]?.finishReason);
      for (const key of ['promptTokenCount', 'candidatesTokenCount', 'totalTokenCount']) expect(body.usageMetadata[key], `${name} ${key}`).to.equal(original.usageMetadata[key]);
    }
  });
});

describe('gemini codec: decodeError', () => {
  it('decodes Gemini error bodies with the detail reason as code', () => {
    expect(geminiCodec.decodeError(400, fixtureJson('gemini', 'responses', 'error-invalid-key.json'))).to.deep.equal({
      status: 400,
      kind: 'invalid_request',
      message: 'API key not valid. Please pass a valid API key.',
      code: 'API_KEY_INVALID',
    });
    expect(geminiCodec.decodeError(429, fixtureJson('gemini', 'responses', 'error-rate-limit.json'))).to.include({ kind: 'rate_limit', status: 429 });
  });

  it('decodes array-wrapped, Anthropic, OpenAI and unlabelled errors', () => {
    expect(geminiCodec.decodeError(503, [{ error: { code: 503, message: 'The model is overloaded.', status: 'UNAVAILABLE' } }])).to.include({ kind: 'overloaded', message: 'The model is overloaded.' });
    expect(geminiCodec.decodeError(529, { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } })).to.include({ kind: 'overloaded' });
    expect(geminiCodec.decodeError(401, { error: { message: 'bad key', type: 'invalid_request_error', code: 'invalid_api_key' } })).to.deep.equal({
      status: 401,
      kind: 'authentication',
      message: 'bad key',
      code: 'invalid_api_key',
    });
    expect(geminiCodec.decodeError(504, '')).to.deep.equal({ status: 504, kind: 'timeout', message: 'upstream returned HTTP 504' });
  });
});
