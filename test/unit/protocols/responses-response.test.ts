// Responses codec: non-stream response objects (fixtures ⇄ IR), status and usage tables, signatures, errors.
import { expect } from 'chai';
import { CodecError } from '../../../src/protocols/codec.ts';
import type { IRResponse, IRStopReason } from '../../../src/protocols/ir.ts';
import { responsesCodec } from '../../../src/protocols/responses/index.ts';
import { encodeCtx } from '../../helpers/codec.ts';
import { fixtureJson } from './openai-helpers.ts';

const BASE: IRResponse = { id: 'chatcmpl-1', model: 'up', created: 1_750_000_000, content: [{ type: 'text', text: 'ok' }], stopReason: 'end_turn' };
const REQUIRED = ['id', 'object', 'created_at', 'model', 'output', 'error', 'incomplete_details', 'instructions', 'metadata', 'parallel_tool_calls', 'temperature', 'top_p', 'tool_choice', 'tools', 'usage', 'status'];

function decode(name: string): IRResponse {
  return responsesCodec.decodeResponse(fixtureJson('responses', 'responses', name));
}

describe('responses codec: decodeResponse (fixtures)', () => {
  it('text', () => {
    expect(decode('text')).to.deep.equal({
      id: 'resp_67ccd2bed1ec8190b14f964abc0542670bb6a6b452d3795b',
      model: 'gpt-4.1-2025-04-14',
      created: 1741476542,
      content: [{ type: 'text', text: 'Arr, matey! Semicolons be mostly optional in JavaScript, thanks to automatic semicolon insertion.' }],
      stopReason: 'end_turn',
      usage: { inputTokens: 36, outputTokens: 87 },
    });
  });

  it('parallel function calls → tool_use with call_id as the IR id', () => {
    const ir = decode('function-calls');
    expect(ir.stopReason).to.equal('tool_use');
    expect(ir.content).to.deep.equal([
      { type: 'tool_call', id: 'call_Ou2PdkRVgXJcRxjmP2V6QNfd', name: 'get_weather', arguments: '{"location":"Paris, France"}' },
      { type: 'tool_call', id: 'call_9BxH4nYDW8WpQKqT6m7k1Zsa', name: 'get_weather', arguments: '{"location":"Boston, MA"}' },
    ]);
  });

  it('reasoning item: summaries joined, encrypted_content as an OpenAI signature', () => {
    const ir = decode('reasoning');
    expect(ir.content[0]).to.deep.include({ type: 'reasoning', signature: { vendor: 'openai', value: 'gAAAAABooQHEnT0c3lG2x9uLq0RkD5N4y3z1wY5eXfQh8nM2bC7dA6sP1oK9jI4uH3gF2eD1cB0aZ9yX8wV7uT6sR5qP4o==' } });
    expect(ir.content[0]).to.have.property('text').that.contains('5-7-5 syllables').and.contains('\n\n**Checking syllables**');
    expect(ir.content[1]).to.deep.equal({ type: 'text', text: 'Function calls itself,\nsmaller steps until the base—\nthe stack unwinds home.' });
    expect(ir.usage).to.deep.equal({ inputTokens: 81, outputTokens: 1035, cacheReadTokens: 64, reasoningTokens: 1002 });
  });

  it('incomplete (max_output_tokens) → max_tokens', () => {
    expect(decode('incomplete').stopReason).to.equal('max_tokens');
  });

  it('a failed response is a 502 CodecError carrying the upstream message', () => {
    const body = { ...fixtureJson('responses', 'responses', 'text'), status: 'failed', error: { code: 'server_error', message: 'boom' } };
    expect(() => responsesCodec.decodeResponse(body)).to.throw(CodecError, /boom/).with.property('status', 502);
  });
});

describe('responses codec: encodeResponse', () => {
  it('emits every always-present field, echoing the request settings', () => {
    const ctx = encodeCtx({ system: 'Be brief.', temperature: 0.2, topP: 0.5, maxTokens: 99, parallelToolCalls: false, tools: [{ name: 'f' }], toolChoice: { type: 'required' }, reasoning: { enabled: true, effort: 'low', includeThoughts: true } }, 'gpt-5');
    const body = responsesCodec.encodeResponse(BASE, ctx);
    for (const field of REQUIRED) expect(body, field).to.have.property(field);
    expect(body['id']).to.match(/^resp_[0-9a-f]{32}$/);
    expect(body).to.deep.include({
      object: 'response',
      created_at: 1_750_000_000,
      status: 'completed',
      model: 'gpt-5',
      error: null,
      incomplete_details: null,
      instructions: 'Be brief.',
      max_output_tokens: 99,
      parallel_tool_calls: false,
      temperature: 0.2,
      top_p: 0.5,
      tool_choice: 'required',
      tools: [{ type: 'function', name: 'f', parameters: null, strict: null }],
      reasoning: { effort: 'low', summary: 'auto' },
      metadata: {},
    });
    expect(body['usage']).to.deep.equal({ input_tokens: 0, input_tokens_details: { cached_tokens: 0 }, output_tokens: 0, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 0 });
  });

  it('output items: reasoning, message (consecutive texts share it), function_call with fc_ id and call_id', () => {
    const response: IRResponse = {
      ...BASE,
      stopReason: 'tool_use',
      content: [
        { type: 'reasoning', text: 'plan', signature: { vendor: 'anthropic', value: 'EqQBCkgI' } },
        { type: 'text', text: 'A' },
        { type: 'text', text: 'B' },
        { type: 'tool_call', id: 'toolu_01', name: 'f', arguments: '{"x":1}' },
      ],
      usage: { inputTokens: 100, outputTokens: 20, cacheReadTokens: 40, reasoningTokens: 5 },
    };
    const body = responsesCodec.encodeResponse(response, encodeCtx());
    const output = body['output'] as Array<Record<string, unknown>>;
    expect(output.map((item) => item['type'])).to.deep.equal(['reasoning', 'message', 'function_call']);
    expect(output[0]).to.deep.include({ summary: [{ type: 'summary_text', text: 'plan' }], encrypted_content: 'gwsig:anthropic:EqQBCkgI' });
    expect(output[1]).to.deep.include({ role: 'assistant', status: 'completed' });
    expect(output[1]?.['content']).to.deep.equal([
      { type: 'output_text', annotations: [], logprobs: [], text: 'A' },
      { type: 'output_text', annotations: [], logprobs: [], text: 'B' },
    ]);
    expect(output[2]).to.deep.include({ call_id: 'toolu_01', name: 'f', arguments: '{"x":1}', status: 'completed' });
    expect(output[2]?.['id']).to.match(/^fc_/);
    expect(body['usage']).to.deep.equal({ input_tokens: 100, input_tokens_details: { cached_tokens: 40 }, output_tokens: 20, output_tokens_details: { reasoning_tokens: 5 }, total_tokens: 120 });
  });

  it('foreign reasoning tokens survive a round trip through a Responses client (encrypted_content)', () => {
    const content: IRResponse['content'] = [
      { type: 'reasoning', text: 'a', signature: { vendor: 'gemini', value: 'c2ln' } },
      { type: 'reasoning', text: '', redacted: 'EmwKAhgBEgy3' },
      { type: 'reasoning', text: 'b', signature: { vendor: 'openai', value: 'gAAAAAB' } },
    ];
    const body = responsesCodec.encodeResponse({ ...BASE, content }, encodeCtx());
    const echoed = responsesCodec.decodeRequest({ model: 'm', input: [...(body['output'] as unknown[]), { role: 'user', content: 'next' }] });
    expect(echoed.messages[0]?.content).to.deep.equal(content);
  });
});

describe('responses codec: status and usage tables (protocols.md §8.12, §8.13)', () => {
  const table: Array<[IRStopReason, string, string | null]> = [
    ['end_turn', 'completed', null],
    ['stop_sequence', 'completed', null],
    ['pause_turn', 'completed', null],
    ['tool_use', 'completed', null],
    ['max_tokens', 'incomplete', 'max_output_tokens'],
    ['context_window_exceeded', 'incomplete', 'max_output_tokens'],
    ['content_filter', 'incomplete', 'content_filter'],
  ];
  for (const [stop, status, reason] of table) {
    it(`IR ${stop} → ${status}${reason ? ` (${reason})` : ''}`, () => {
      const body = responsesCodec.encodeResponse({ ...BASE, stopReason: stop }, encodeCtx());
      expect(body['status']).to.equal(status);
      expect(body['incomplete_details']).to.deep.equal(reason === null ? null : { reason });
    });
  }

  it('incomplete content_filter → content_filter; completed with calls → tool_use', () => {
    const body = { ...fixtureJson('responses', 'responses', 'incomplete'), incomplete_details: { reason: 'content_filter' } };
    expect(responsesCodec.decodeResponse(body).stopReason).to.equal('content_filter');
  });

  it('usage with cache writes maps one to one', () => {
    const usage = { input_tokens: 50, input_tokens_details: { cached_tokens: 10, cache_write_tokens: 30 }, output_tokens: 7, output_tokens_details: { reasoning_tokens: 3 }, total_tokens: 57 };
    const ir = responsesCodec.decodeResponse({ id: 'r', output: [], status: 'completed', usage });
    expect(ir.usage).to.deep.equal({ inputTokens: 50, outputTokens: 7, cacheReadTokens: 10, cacheWriteTokens: 30, reasoningTokens: 3 });
    expect(responsesCodec.encodeResponse({ ...BASE, usage: ir.usage! }, encodeCtx())['usage']).to.deep.equal(usage);
  });
});

describe('responses codec: decodeError', () => {
  it('OpenAI error body with status', () => {
    const body = { error: { message: 'Rate limit reached for gpt-4.1', type: 'tokens', param: null, code: 'rate_limit_exceeded' } };
    expect(responsesCodec.decodeError(429, body)).to.deep.equal({ status: 429, kind: 'rate_limit', message: 'Rate limit reached for gpt-4.1', code: 'rate_limit_exceeded' });
  });

  it('other shapes and plain text', () => {
    expect(responsesCodec.decodeError(529, { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } })).to.include({ kind: 'overloaded', message: 'Overloaded' });
    expect(responsesCodec.decodeError(502, 'upstream connect error')).to.include({ kind: 'server_error', message: 'upstream connect error' });
    expect(responsesCodec.decodeError(500, '')).to.include({ message: 'Upstream returned HTTP 500' });
  });

  it('in-band: error events and response.failed are classified by code', () => {
    expect(responsesCodec.decodeError(0, { type: 'error', code: 'rate_limit_exceeded', message: 'slow', param: null, sequence_number: 3 })).to.include({ status: 429, kind: 'rate_limit' });
    expect(responsesCodec.decodeError(0, { type: 'response.failed', response: { error: { code: 'server_error', message: 'boom' } } })).to.deep.equal({ status: 500, kind: 'server_error', message: 'boom', code: 'server_error' });
    expect(responsesCodec.decodeError(0, { type: 'error', code: 'invalid_prompt', message: 'bad' })).to.include({ status: 400, kind: 'invalid_request' });
  });
});
