// Responses codec: request decode (golden fixtures → IR), request encode (IR → upstream body), CodecErrors.
import { expect } from 'chai';
import { CodecError } from '../../../src/protocols/codec.ts';
import type { IRRequest } from '../../../src/protocols/ir.ts';
import { responsesCodec } from '../../../src/protocols/responses/index.ts';
import { fixtureJson } from './openai-helpers.ts';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const ENCRYPTED = 'gAAAAABoIPOEq1cyCN-uTpgLM0s0aWnq3Ryv4oIxTJq1qnGW3Vv1cF8oQ1oCbBIX3sOKmgYVrA==';
const PARIS = 'call_Ou2PdkRVgXJcRxjmP2V6QNfd';
const BOSTON = 'call_9BxH4nYDW8WpQKqT6m7k1Zsa';

function decode(name: string): IRRequest {
  return responsesCodec.decodeRequest(fixtureJson('responses', 'requests', name));
}

function encode(request: IRRequest): { body: Record<string, unknown>; dropped: string[] } {
  const dropped: string[] = [];
  return { body: responsesCodec.encodeRequest(request, { upstreamModel: 'gpt-up', defaultMaxTokens: 1024, dropped }), dropped };
}

describe('responses codec: decodeRequest (fixtures)', () => {
  it('text: string input + instructions', () => {
    expect(decode('text')).to.deep.equal({
      model: 'gpt-4.1',
      system: 'You are a coding assistant that talks like a pirate.',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Are semicolons optional in JavaScript?' }] }],
      stream: false,
    });
  });

  it('multi-turn items with a developer message, settings, dropped fields', () => {
    expect(decode('multi-turn')).to.deep.equal({
      model: 'gpt-4.1',
      system: 'Answer in one sentence.',
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'knock knock.' }] },
        { role: 'assistant', content: [{ type: 'text', text: "Who's there?" }] },
        { role: 'user', content: [{ type: 'text', text: 'Orange.' }] },
      ],
      stream: false,
      temperature: 0.7,
      topP: 1,
      maxTokens: 512,
      user: 'user-1234',
      dropped: ['top_logprobs'],
    });
  });

  it('flat function tools and allowed_tools choice', () => {
    const ir = decode('tools');
    expect(ir.tools?.[0]).to.deep.include({ name: 'get_weather', description: 'Get current temperature for a given location.', strict: true });
    expect(ir.tools?.[1]).to.deep.equal({ name: 'get_time', description: 'Current local time in a city', strict: false });
    expect(ir.toolChoice).to.deep.equal({ type: 'allowed', mode: 'required', names: ['get_weather'] });
    expect(ir.parallelToolCalls).to.equal(true);
  });

  it('tool history: reasoning + function_call items merge into one assistant turn, outputs + user into one user turn', () => {
    const ir = decode('tool-history');
    expect(ir.system).to.equal('You are a helpful assistant.');
    expect(ir.reasoning).to.deep.equal({ enabled: true, effort: 'low', includeThoughts: true });
    expect(ir.dropped).to.equal(undefined);
    expect(ir.messages.slice(1)).to.deep.equal([
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: "**Checking the weather**\n\nI need the weather for two cities, so I'll call the tool twice.", signature: { vendor: 'openai', value: ENCRYPTED } },
          { type: 'tool_call', id: PARIS, name: 'get_weather', arguments: '{"location":"Paris, France"}' },
          { type: 'tool_call', id: BOSTON, name: 'get_weather', arguments: '{"location":"Boston, MA"}' },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', callId: PARIS, content: [{ type: 'text', text: '{"temperature":14,"unit":"celsius"}' }] },
          { type: 'tool_result', callId: BOSTON, content: [{ type: 'text', text: '{"temperature":14,"unit":"celsius"}' }] },
          { type: 'text', text: 'Which one is warmer?' },
        ],
      },
    ]);
  });

  it('images (data URL and URL) and an input_file', () => {
    const content = decode('images').messages[0]?.content;
    expect(content?.slice(0, 3)).to.deep.equal([
      { type: 'text', text: 'What is in these images, and what does the document say?' },
      { type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: PNG }, detail: 'auto' },
      { type: 'image', source: { kind: 'url', url: 'https://upload.wikimedia.org/wikipedia/commons/thumb/d/dd/Gfp-wisconsin-madison-the-nature-boardwalk.jpg/2560px-Gfp-wisconsin-madison-the-nature-boardwalk.jpg' }, detail: 'high' },
    ]);
    expect(content?.[3]).to.include({ type: 'document', mediaType: 'application/pdf', filename: 'invoice.pdf' });
  });

  it('text.format json_schema; verbosity is reported as dropped', () => {
    const ir = decode('json-schema');
    expect(ir.responseFormat).to.deep.include({ type: 'json_schema', name: 'calendar_event', strict: true });
    expect(ir.system).to.equal('Extract the event information.');
    expect(ir.dropped).to.deep.equal(['text.verbosity']);
  });

  it('Codex-style request: instructions + developer item joined, reasoning, stream, bookkeeping ignored', () => {
    const ir = decode('reasoning');
    expect(ir.system).to.equal('You are Codex, a coding agent.\n\n<environment_context>cwd: /repo</environment_context>');
    expect(ir).to.deep.include({ stream: true, maxTokens: 2048, parallelToolCalls: false, toolChoice: { type: 'auto' }, reasoning: { enabled: true, effort: 'medium', includeThoughts: true } });
    expect(ir.dropped).to.equal(undefined);
  });
});

describe('responses codec: decodeRequest rejects what it cannot carry (CodecError 400 naming the field)', () => {
  const input = 'hi';
  const cases: Array<[string, unknown, string | undefined]> = [
    ['body not an object', 'hello', undefined],
    ['model missing', { input }, 'model'],
    ['input missing', { model: 'm' }, 'input'],
    ['previous_response_id (the gateway stores no responses)', { model: 'm', input, previous_response_id: 'resp_1' }, 'previous_response_id'],
    ['conversation', { model: 'm', input, conversation: 'conv_1' }, 'conversation'],
    ['stored prompt template', { model: 'm', input, prompt: { id: 'pmpt_1', version: '2' } }, 'prompt'],
    ['background mode', { model: 'm', input, background: true }, 'background'],
    ['hosted web_search tool', { model: 'm', input, tools: [{ type: 'web_search' }] }, 'tools[0].type'],
    ['custom tool', { model: 'm', input, tools: [{ type: 'custom', name: 'apply_patch' }] }, 'tools[0].type'],
    ['hosted tool_choice', { model: 'm', input, tool_choice: { type: 'web_search_preview' } }, 'tool_choice.type'],
    ['item_reference', { model: 'm', input: [{ type: 'item_reference', id: 'msg_1' }] }, 'input[0].type'],
    ['unknown item type', { model: 'm', input: [{ type: 'local_shell_call', call_id: 'c' }] }, 'input[0].type'],
    ['input_image by file id', { model: 'm', input: [{ role: 'user', content: [{ type: 'input_image', file_id: 'file-1', detail: 'auto' }] }] }, 'input[0].content[0].image_url'],
    ['input_file by URL', { model: 'm', input: [{ role: 'user', content: [{ type: 'input_file', file_url: 'https://x/y.pdf' }] }] }, 'input[0].content[0].file_data'],
    ['function_call_output without call_id', { model: 'm', input: [{ type: 'function_call_output', output: 'x' }] }, 'input[0].call_id'],
    ['unknown reasoning effort', { model: 'm', input, reasoning: { effort: 'turbo' } }, 'reasoning.effort'],
    ['json_schema without schema', { model: 'm', input, text: { format: { type: 'json_schema', name: 'x' } } }, 'text.format.schema'],
    ['unknown role', { model: 'm', input: [{ role: 'tool', content: 'x' }] }, 'input[0].role'],
    ['image in a system message', { model: 'm', input: [{ role: 'system', content: [{ type: 'input_image', image_url: 'https://x/y.png' }] }] }, 'input[0].content[0]'],
  ];
  for (const [name, body, param] of cases) {
    it(name, () => {
      let caught: unknown;
      try {
        responsesCodec.decodeRequest(body);
      } catch (error) {
        caught = error;
      }
      expect(caught).to.be.instanceOf(CodecError);
      expect((caught as CodecError).status).to.equal(400);
      expect((caught as CodecError).param).to.equal(param);
    });
  }

  it('previous_response_id error explains why', () => {
    expect(() => responsesCodec.decodeRequest({ model: 'm', input, previous_response_id: 'resp_1' })).to.throw(/does not store responses/);
  });
});

describe('responses codec: encodeRequest', () => {
  it('re-encodes the tool-history fixture item by item, statelessly', () => {
    const { body, dropped } = encode(decode('tool-history'));
    expect(dropped).to.deep.equal([]);
    const input = body['input'] as Array<Record<string, unknown>>;
    expect(input[1]).to.deep.include({ type: 'reasoning', encrypted_content: ENCRYPTED });
    expect(input[1]?.['id']).to.match(/^rs_[0-9a-f]{32}$/);
    expect([input[0], ...input.slice(2)]).to.deep.equal([
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'What is the weather like in Paris and in Boston today?' }] },
      { type: 'function_call', call_id: PARIS, name: 'get_weather', arguments: '{"location":"Paris, France"}' },
      { type: 'function_call', call_id: BOSTON, name: 'get_weather', arguments: '{"location":"Boston, MA"}' },
      { type: 'function_call_output', call_id: PARIS, output: '{"temperature":14,"unit":"celsius"}' },
      { type: 'function_call_output', call_id: BOSTON, output: '{"temperature":14,"unit":"celsius"}' },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Which one is warmer?' }] },
    ]);
    expect(body).to.deep.include({
      model: 'gpt-up',
      instructions: 'You are a helpful assistant.',
      reasoning: { effort: 'low', summary: 'auto' },
      store: false,
      include: ['reasoning.encrypted_content'],
    });
  });

  it('tools are flat; unset strict is sent as false (the Responses default is strict)', () => {
    const { body } = encode({ model: 'm', stream: true, messages: [], tools: [{ name: 'f' }, { name: 'g', parameters: { type: 'object' }, strict: true }], toolChoice: { type: 'tool', name: 'g' } });
    expect(body['tools']).to.deep.equal([
      { type: 'function', name: 'f', parameters: null, strict: false },
      { type: 'function', name: 'g', parameters: { type: 'object' }, strict: true },
    ]);
    expect(body['tool_choice']).to.deep.equal({ type: 'function', name: 'g' });
    expect(body['stream']).to.equal(true);
  });

  it('drops settings Responses lacks and foreign reasoning; tool results keep images', () => {
    const request: IRRequest = {
      model: 'm',
      stream: false,
      stop: ['END'],
      seed: 1,
      presencePenalty: 0.5,
      topK: 3,
      messages: [
        { role: 'assistant', content: [{ type: 'reasoning', text: 't', signature: { vendor: 'gemini', value: 'x' } }, { type: 'tool_call', id: 'c1', name: 'f', arguments: '{}' }] },
        { role: 'user', content: [{ type: 'tool_result', callId: 'c1', content: [{ type: 'text', text: 'see' }, { type: 'image', source: { kind: 'url', url: 'https://x/y.png' } }] }] },
      ],
    };
    const { body, dropped } = encode(request);
    expect(body['input']).to.deep.equal([
      { type: 'function_call', call_id: 'c1', name: 'f', arguments: '{}' },
      { type: 'function_call_output', call_id: 'c1', output: [{ type: 'input_text', text: 'see' }, { type: 'input_image', image_url: 'https://x/y.png', detail: 'auto' }] },
    ]);
    expect(dropped).to.have.members(['stop', 'seed', 'presence_penalty', 'top_k', 'reasoning']);
  });

  it('n > 1 cannot be carried: CodecError naming n', () => {
    expect(() => encode({ model: 'm', stream: false, messages: [], n: 2 }))
      .to.throw(CodecError)
      .with.property('param', 'n');
  });
});
