// Chat Completions codec: request decode (golden fixtures → IR), request encode (IR → upstream body), CodecErrors.
import { expect } from 'chai';
import { chatCodec } from '../../../src/protocols/chat/index.ts';
import { CodecError } from '../../../src/protocols/codec.ts';
import type { IRRequest } from '../../../src/protocols/ir.ts';
import { fixtureJson } from './openai-helpers.ts';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const WEATHER_PARAMS = { type: 'object', properties: { location: { type: 'string' } }, required: ['location'] };

function decode(name: string): IRRequest {
  return chatCodec.decodeRequest(fixtureJson('chat', 'requests', name));
}

function encode(request: IRRequest, upstreamModel = 'upstream-model'): { body: Record<string, unknown>; dropped: string[] } {
  const dropped: string[] = [];
  const body = chatCodec.encodeRequest(request, { upstreamModel, defaultMaxTokens: 1024, dropped });
  return { body, dropped };
}

describe('chat codec: decodeRequest (fixtures)', () => {
  it('text', () => {
    expect(decode('text')).to.deep.equal({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: [{ type: 'text', text: 'Say hello in French.' }] }], stream: false });
  });

  it('multi-turn with system/developer hoisted, settings and dropped fields', () => {
    expect(decode('multi-turn-system')).to.deep.equal({
      model: 'gpt-4o',
      system: 'You are a terse assistant that answers in one sentence.\n\nNever use emoji.\nPrefer metric units.',
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'How tall is the Eiffel Tower?' }] },
        { role: 'assistant', content: [{ type: 'text', text: 'The Eiffel Tower is about 330 metres tall.' }] },
        { role: 'user', content: [{ type: 'text', text: 'And how much does it weigh?' }] },
      ],
      stream: false,
      maxTokens: 256,
      temperature: 0.3,
      topP: 0.9,
      stop: ['\n\n', 'END'],
      n: 1,
      seed: 42,
      presencePenalty: 0.1,
      frequencyPenalty: 0.2,
      user: 'user-1234',
      dropped: ['logit_bias', 'messages[].name'],
    });
  });

  it('tools, tool_choice and parallel_tool_calls', () => {
    const ir = decode('tools');
    expect(ir.tools).to.have.length(2);
    expect(ir.tools?.[0]).to.include({ name: 'get_weather', description: 'Get the current weather in a given location', strict: true });
    expect(ir.tools?.[0]?.parameters).to.have.nested.property('properties.unit.enum').that.deep.equals(['celsius', 'fahrenheit']);
    expect(ir.tools?.[1]).to.deep.equal({ name: 'get_time', description: 'Current local time in a city' });
    expect(ir.toolChoice).to.deep.equal({ type: 'tool', name: 'get_weather' });
    expect(ir.parallelToolCalls).to.equal(true);
  });

  it('tool-call history: arguments stay strings, tool messages merge with the following user message', () => {
    expect(decode('tool-history').messages).to.deep.equal([
      { role: 'user', content: [{ type: 'text', text: "What's the weather like in Paris and in Boston today?" }] },
      {
        role: 'assistant',
        content: [
          { type: 'tool_call', id: 'call_Ou2PdkRVgXJcRxjmP2V6QNfd', name: 'get_weather', arguments: '{"location":"Paris, France"}' },
          { type: 'tool_call', id: 'call_9BxH4nYDW8WpQKqT6m7k1Zsa', name: 'get_weather', arguments: '{"location":"Boston, MA"}' },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', callId: 'call_Ou2PdkRVgXJcRxjmP2V6QNfd', content: [{ type: 'text', text: '{"temperature":14,"unit":"celsius","condition":"cloudy"}' }] },
          { type: 'tool_result', callId: 'call_9BxH4nYDW8WpQKqT6m7k1Zsa', content: [{ type: 'text', text: '{"temperature":57,"unit":"fahrenheit","condition":"sunny"}' }] },
          { type: 'text', text: 'Answer in Celsius please.' },
        ],
      },
    ]);
  });

  it('images: data URL → base64 source, https → url source with detail', () => {
    const ir = decode('images');
    expect(ir.maxTokens).to.equal(300);
    expect(ir.messages[0]?.content).to.deep.equal([
      { type: 'text', text: 'What is in these two images?' },
      { type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: PNG } },
      {
        type: 'image',
        source: { kind: 'url', url: 'https://upload.wikimedia.org/wikipedia/commons/thumb/d/dd/Gfp-wisconsin-madison-the-nature-boardwalk.jpg/2560px-Gfp-wisconsin-madison-the-nature-boardwalk.jpg' },
        detail: 'low',
      },
    ]);
  });

  it('PDF file part → document block', () => {
    const block = decode('file-pdf').messages[0]?.content[0];
    expect(block).to.include({ type: 'document', mediaType: 'application/pdf', filename: 'invoice.pdf' });
    expect(block).to.have.property('data').that.match(/^JVBERi0/);
  });

  it('json_schema response_format', () => {
    expect(decode('json-schema').responseFormat).to.deep.include({ type: 'json_schema', name: 'calendar_event', description: 'A calendar event', strict: true });
  });

  it('reasoning_effort, reasoning_content history, stream + include_usage', () => {
    const ir = decode('reasoning');
    expect(ir.reasoning).to.deep.equal({ enabled: true, effort: 'high' });
    expect(ir.system).to.equal('Think carefully and answer with a number only.');
    expect(ir.messages[1]).to.deep.equal({
      role: 'assistant',
      content: [{ type: 'reasoning', text: 's-t-r-a-w-b-e-r-r-y: r at positions 3, 8 and 9.' }, { type: 'text', text: '3' }],
    });
    expect(ir).to.include({ stream: true, includeUsage: true, maxTokens: 4000 });
  });

  it('max_completion_tokens wins over max_tokens; ctx overrides model and stream', () => {
    const body = { model: 'a', messages: [{ role: 'user', content: 'hi' }], max_tokens: 5, max_completion_tokens: 9 };
    expect(chatCodec.decodeRequest(body, { model: 'b', stream: true })).to.include({ model: 'b', stream: true, maxTokens: 9 });
  });

  it('decodes every tool_choice form', () => {
    const choice = (tool_choice: unknown): unknown => chatCodec.decodeRequest({ model: 'm', messages: [{ role: 'user', content: 'x' }], tool_choice }).toolChoice;
    expect(choice('auto')).to.deep.equal({ type: 'auto' });
    expect(choice('none')).to.deep.equal({ type: 'none' });
    expect(choice('required')).to.deep.equal({ type: 'required' });
    expect(choice({ type: 'function', function: { name: 'f' } })).to.deep.equal({ type: 'tool', name: 'f' });
    const allowed = { type: 'allowed_tools', allowed_tools: { mode: 'required', tools: [{ type: 'function', function: { name: 'f' } }, { type: 'function', function: { name: 'g' } }] } };
    expect(choice(allowed)).to.deep.equal({ type: 'allowed', mode: 'required', names: ['f', 'g'] });
  });
});

describe('chat codec: decodeRequest rejects what it cannot carry (CodecError 400 naming the field)', () => {
  const user = { role: 'user', content: 'hi' };
  const cases: Array<[string, unknown, string | undefined]> = [
    ['body not an object', [1, 2], undefined],
    ['model missing', { messages: [user] }, 'model'],
    ['messages not an array', { model: 'm', messages: 'hi' }, 'messages'],
    ['messages empty', { model: 'm', messages: [] }, 'messages'],
    ['unknown role', { model: 'm', messages: [{ role: 'robot', content: 'x' }] }, 'messages[0].role'],
    ['tool message without tool_call_id', { model: 'm', messages: [user, { role: 'tool', content: 'x' }] }, 'messages[1].tool_call_id'],
    ['audio input', { model: 'm', messages: [{ role: 'user', content: [{ type: 'input_audio', input_audio: { data: 'AA', format: 'wav' } }] }] }, 'messages[0].content[0].type'],
    ['image URL that is neither http(s) nor data:', { model: 'm', messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'ftp://x/y.png' } }] }] }, 'messages[0].content[0].image_url.url'],
    ['file id instead of bytes', { model: 'm', messages: [{ role: 'user', content: [{ type: 'file', file: { file_id: 'file-abc' } }] }] }, 'messages[0].content[0].file.file_id'],
    ['custom tool', { model: 'm', messages: [user], tools: [{ type: 'custom', custom: { name: 'grammar' } }] }, 'tools[0].type'],
    ['function tool without name', { model: 'm', messages: [user], tools: [{ type: 'function', function: {} }] }, 'tools[0].function.name'],
    ['custom tool_choice', { model: 'm', messages: [user], tool_choice: { type: 'custom', custom: { name: 'x' } } }, 'tool_choice.type'],
    ['unknown tool_choice string', { model: 'm', messages: [user], tool_choice: 'sometimes' }, 'tool_choice'],
    ['temperature not a number', { model: 'm', messages: [user], temperature: 'hot' }, 'temperature'],
    ['stop not a string/array', { model: 'm', messages: [user], stop: 7 }, 'stop'],
    ['unknown reasoning_effort', { model: 'm', messages: [user], reasoning_effort: 'extreme' }, 'reasoning_effort'],
    ['json_schema without json_schema', { model: 'm', messages: [user], response_format: { type: 'json_schema' } }, 'response_format.json_schema'],
    ['legacy functions', { model: 'm', messages: [user], functions: [{ name: 'f' }] }, 'functions'],
    ['assistant custom tool call', { model: 'm', messages: [{ role: 'assistant', tool_calls: [{ id: 'c', type: 'custom', custom: { name: 'x', input: '' } }] }] }, 'messages[0].tool_calls[0].type'],
    ['stream_options not an object', { model: 'm', messages: [user], stream: true, stream_options: true }, 'stream_options'],
  ];
  for (const [name, body, param] of cases) {
    it(name, () => {
      let caught: unknown;
      try {
        chatCodec.decodeRequest(body);
      } catch (error) {
        caught = error;
      }
      expect(caught).to.be.instanceOf(CodecError);
      expect((caught as CodecError).status).to.equal(400);
      expect((caught as CodecError).param).to.equal(param);
    });
  }
});

describe('chat codec: encodeRequest', () => {
  it('re-encodes the tool-history fixture for an upstream (tool messages split back out)', () => {
    const { body, dropped } = encode(decode('tool-history'));
    expect(dropped).to.deep.equal([]);
    expect(body).to.deep.equal({
      model: 'upstream-model',
      messages: [
        { role: 'system', content: 'You are a helpful assistant.' },
        { role: 'user', content: "What's the weather like in Paris and in Boston today?" },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'call_Ou2PdkRVgXJcRxjmP2V6QNfd', type: 'function', function: { name: 'get_weather', arguments: '{"location":"Paris, France"}' } },
            { id: 'call_9BxH4nYDW8WpQKqT6m7k1Zsa', type: 'function', function: { name: 'get_weather', arguments: '{"location":"Boston, MA"}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_Ou2PdkRVgXJcRxjmP2V6QNfd', content: '{"temperature":14,"unit":"celsius","condition":"cloudy"}' },
        { role: 'tool', tool_call_id: 'call_9BxH4nYDW8WpQKqT6m7k1Zsa', content: '{"temperature":57,"unit":"fahrenheit","condition":"sunny"}' },
        { role: 'user', content: 'Answer in Celsius please.' },
      ],
      tools: [{ type: 'function', function: { name: 'get_weather', description: 'Get the current weather in a given location', parameters: WEATHER_PARAMS } }],
      tool_choice: 'auto',
    });
  });

  it('streams always ask for usage; settings map to Chat fields', () => {
    const { body } = encode({ ...decode('multi-turn-system'), stream: true, responseFormat: { type: 'json_object' } });
    expect(body).to.deep.include({
      max_completion_tokens: 256,
      temperature: 0.3,
      top_p: 0.9,
      stop: ['\n\n', 'END'],
      n: 1,
      seed: 42,
      presence_penalty: 0.1,
      frequency_penalty: 0.2,
      user: 'user-1234',
      response_format: { type: 'json_object' },
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it('images, documents and json_schema encode to Chat parts', () => {
    const request: IRRequest = {
      model: 'm',
      stream: false,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: PNG }, detail: 'high' },
            { type: 'image', source: { kind: 'url', url: 'https://example.com/a.jpg' } },
            { type: 'document', mediaType: 'application/pdf', data: 'JVBERi0x', filename: 'a.pdf' },
          ],
        },
      ],
      responseFormat: { type: 'json_schema', schema: { type: 'object' } },
    };
    const { body } = encode(request);
    expect(body['messages']).to.deep.equal([
      {
        role: 'user',
        content: [
          { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}`, detail: 'high' } },
          { type: 'image_url', image_url: { url: 'https://example.com/a.jpg' } },
          { type: 'file', file: { file_data: 'data:application/pdf;base64,JVBERi0x', filename: 'a.pdf' } },
        ],
      },
    ]);
    expect(body['response_format']).to.deep.equal({ type: 'json_schema', json_schema: { name: 'response', schema: { type: 'object' } } });
  });

  it('drops what Chat cannot carry and reports it: foreign reasoning, tool-result images and error flags, top_k', () => {
    const request: IRRequest = {
      model: 'm',
      stream: false,
      topK: 40,
      reasoning: { enabled: true, budgetTokens: 3000 },
      tools: [{ name: 'f' }],
      toolChoice: { type: 'allowed', mode: 'auto', names: ['f'] },
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'go' }] },
        {
          role: 'assistant',
          content: [
            { type: 'reasoning', text: 'thinking…', signature: { vendor: 'anthropic', value: 'sig' } },
            { type: 'text', text: 'Calling f.' },
            { type: 'tool_call', id: 'toolu_1', name: 'f', arguments: '{}' },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'here:' },
            { type: 'tool_result', callId: 'toolu_1', isError: true, content: [{ type: 'text', text: 'boom' }, { type: 'image', source: { kind: 'url', url: 'https://x/y.png' } }] },
          ],
        },
      ],
    };
    const { body, dropped } = encode(request);
    expect(body['messages']).to.deep.equal([
      { role: 'user', content: 'go' },
      { role: 'assistant', content: 'Calling f.', tool_calls: [{ id: 'toolu_1', type: 'function', function: { name: 'f', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'toolu_1', content: 'boom' },
      { role: 'user', content: 'here:' },
    ]);
    expect(body).to.deep.include({
      reasoning_effort: 'medium',
      tool_choice: { type: 'allowed_tools', allowed_tools: { mode: 'auto', tools: [{ type: 'function', function: { name: 'f' } }] } },
    });
    expect(dropped).to.have.members(['reasoning', 'tool_result.image', 'tool_result.is_error', 'top_k']);
  });

  it('maps every tool choice and reasoning config', () => {
    const choice = (toolChoice: IRRequest['toolChoice']): unknown => encode({ model: 'm', stream: false, messages: [], tools: [{ name: 'f' }], toolChoice }).body['tool_choice'];
    expect(choice({ type: 'auto' })).to.equal('auto');
    expect(choice({ type: 'none' })).to.equal('none');
    expect(choice({ type: 'required' })).to.equal('required');
    expect(choice({ type: 'tool', name: 'f' })).to.deep.equal({ type: 'function', function: { name: 'f' } });
    const withoutTools = encode({ model: 'm', stream: false, messages: [], toolChoice: { type: 'none' }, parallelToolCalls: false }).body;
    expect(withoutTools).not.to.have.any.keys('tool_choice', 'parallel_tool_calls');
    const effort = (reasoning: IRRequest['reasoning']): unknown => encode({ model: 'm', stream: false, messages: [], reasoning }).body['reasoning_effort'];
    expect(effort({ enabled: true, effort: 'xhigh' })).to.equal('xhigh');
    expect(effort({ enabled: false, effort: 'none' })).to.equal('none');
    expect(effort({ enabled: false })).to.equal(undefined);
    expect(effort({ enabled: true })).to.equal('medium');
    expect(effort({ enabled: true, budgetTokens: 1024 })).to.equal('minimal');
    expect(effort({ enabled: true, budgetTokens: 2048 })).to.equal('low');
    expect(effort({ enabled: true, budgetTokens: 30000 })).to.equal('high');
  });
});
