// Gemini codec: request decode (camelCase and snake_case) and encode, ids, schema conversion, CodecError cases.
import { expect } from 'chai';
import type { RequestEncodeContext } from '../../../src/protocols/codec.ts';
import { geminiCodec } from '../../../src/protocols/gemini/index.ts';
import { geminiSchemaToJsonSchema } from '../../../src/protocols/gemini/schema.ts';
import type { IRMessage, IRRequest } from '../../../src/protocols/ir.ts';
import { codecError, userText } from '../../helpers/codec.ts';
import { fixtureJson } from '../../helpers/fixtures.ts';

const decode = (name: string, stream = false): IRRequest =>
  geminiCodec.decodeRequest(fixtureJson('gemini', 'requests', name), { model: 'models/gemini-2.5-flash', stream });

function encode(request: Partial<IRRequest> & { messages: IRMessage[] }): { body: Record<string, unknown>; dropped: string[] } {
  const ctx: RequestEncodeContext = { upstreamModel: 'gemini-2.5-flash', defaultMaxTokens: 4096, dropped: [] };
  const body = geminiCodec.encodeRequest({ model: 'client', stream: false, ...request }, ctx);
  return { body, dropped: ctx.dropped };
}

describe('gemini codec: decodeRequest', () => {
  it('takes model and stream from the URL; a content without role is a user turn', () => {
    expect(decode('text.json', true)).to.deep.equal({
      model: 'gemini-2.5-flash',
      stream: true,
      messages: [userText('Explain how AI works in a few words')],
    });
  });

  it('decodes system instruction, roles, generation settings and reports safetySettings', () => {
    const ir = decode('multi-turn.json');
    expect(ir.system).to.equal('You are a cat.\nYour name is Neko.');
    expect(ir.messages.map((m) => m.role)).to.deep.equal(['user', 'assistant', 'user']);
    expect(ir).to.deep.include({ temperature: 1.5, topP: 0.95, topK: 40, maxTokens: 800, stop: ['Title'], n: 1, seed: 42, presencePenalty: 0.5, frequencyPenalty: 0.25 });
    expect(ir.dropped).to.deep.equal(['safetySettings']);
  });

  it('accepts snake_case keys everywhere, but keeps property names as data', () => {
    const ir = decode('snake-case.json');
    expect(ir.system).to.equal('You are a helpful travel assistant.');
    expect(ir.messages[0]?.content[0]).to.nested.include({ type: 'image', 'source.kind': 'base64', 'source.mediaType': 'image/jpeg' });
    expect(ir.tools?.[0]).to.deep.equal({
      name: 'get_weather',
      description: 'Get the current weather for a city',
      parameters: {
        type: 'object',
        properties: {
          city_name: { type: 'string', description: 'City name' },
          units: { type: ['string', 'null'], enum: ['metric', 'imperial'] },
        },
        required: ['city_name'],
      },
    });
    expect(ir.toolChoice).to.deep.equal({ type: 'tool', name: 'get_weather' });
    expect(ir).to.deep.include({ maxTokens: 1024, temperature: 0.2, topP: 0.8, topK: 20, stop: ['STOP!'] });
    expect(ir.reasoning).to.deep.equal({ enabled: true, budgetTokens: 2048, includeThoughts: true });
    expect(ir.dropped).to.deep.equal(['safetySettings']);
  });

  it('collects declarations from several Tool objects; passes parametersJsonSchema through', () => {
    const ir = decode('tools.json');
    expect(ir.tools?.map((t) => t.name)).to.deep.equal(['set_light_values', 'schedule_meeting', 'get_current_time']);
    expect(ir.tools?.[0]?.parameters).to.nested.include({ 'properties.brightness.type': 'integer', 'properties.brightness.maximum': 100 });
    expect(ir.tools?.[1]?.parameters).to.deep.equal((fixtureJson('gemini', 'requests', 'tools.json') as { tools: Array<{ functionDeclarations: Array<{ parametersJsonSchema?: unknown }> }> }).tools[1]?.functionDeclarations[0]?.parametersJsonSchema);
    expect(ir.tools?.[2]).to.deep.equal({ name: 'get_current_time' });
    expect(ir.toolChoice).to.deep.equal({ type: 'allowed', mode: 'required', names: ['set_light_values', 'schedule_meeting'] });
  });

  it('synthesises call ids from position and matches id-less responses by name and order', () => {
    const ir = decode('function-history.json');
    const [, model, results, answer, , rome, romeResult] = ir.messages;
    expect(model?.content).to.deep.equal([
      { type: 'tool_call', id: 'call_1_0', name: 'get_weather', arguments: '{"city":"Paris"}', signature: { vendor: 'gemini', value: 'CiQBVKhc7nQsyXNFaB0lD7O9GHq8qiCvmnoXsFO3HSMObtaMjrUKYQFUqFzuL2OAMwANjtWXNK8spsCmDZ14HOpPM5Qt0xtPdHCv9ZMvC9GNWV6pmd0T' } },
      { type: 'tool_call', id: 'call_1_1', name: 'get_time', arguments: '{"timezone":"Europe/Paris"}' },
    ]);
    expect(results?.content).to.deep.equal([
      { type: 'tool_result', callId: 'call_1_0', name: 'get_weather', content: [{ type: 'text', text: '{"temperature_c":15,"conditions":"light rain"}' }] },
      { type: 'tool_result', callId: 'call_1_1', name: 'get_time', content: [{ type: 'text', text: 'time service unavailable' }], isError: true },
    ]);
    expect(answer?.content[0]).to.deep.include({ type: 'reasoning', text: '' });
    expect(answer?.content[1]).to.deep.equal({ type: 'text', text: 'It is 15°C with light rain in Paris. I could not get the time.' });
    expect(rome?.content[0]).to.include({ id: 'fc-rome-1' });
    expect(romeResult?.content[0]).to.deep.equal({ type: 'tool_result', callId: 'fc-rome-1', name: 'get_weather', content: [{ type: 'text', text: '{"temperature_c":22,"conditions":"sunny"}' }] });
  });

  it('matches several id-less calls of the same function in order', () => {
    const call = { functionCall: { name: 'f', args: {} } };
    const result = (n: number) => ({ functionResponse: { name: 'f', response: { output: n } } });
    const ir = geminiCodec.decodeRequest({ contents: [{ parts: [{ text: 'q' }] }, { role: 'model', parts: [call, call] }, { role: 'user', parts: [result(1), result(2)] }] }, { model: 'm' });
    expect(ir.messages[2]?.content.map((b) => (b.type === 'tool_result' ? [b.callId, b.content] : []))).to.deep.equal([
      ['call_1_0', [{ type: 'text', text: '1' }]],
      ['call_1_1', [{ type: 'text', text: '2' }]],
    ]);
  });

  it('decodes inline images, Files-API images and PDFs', () => {
    expect(decode('images.json').messages[0]?.content.map((b) => b.type)).to.deep.equal(['image', 'image', 'document', 'text']);
    expect(decode('images.json').messages[0]?.content[1]).to.deep.equal({ type: 'image', source: { kind: 'url', url: 'https://generativelanguage.googleapis.com/v1beta/files/abc-123' } });
  });

  it('decodes thinking levels and budgets', () => {
    expect(decode('thinking.json').reasoning).to.deep.equal({ enabled: true, effort: 'high', includeThoughts: true });
    const budget = (thinkingBudget: number) => geminiCodec.decodeRequest({ contents: [], generationConfig: { thinkingConfig: { thinkingBudget } } }, { model: 'm' }).reasoning;
    expect(budget(0)).to.deep.equal({ enabled: false });
    expect(budget(-1)).to.deep.equal({ enabled: true });
  });

  it('converts responseSchema to JSON Schema; responseJsonSchema passes as is; bare JSON mode is json_object', () => {
    expect(decode('json-schema.json').responseFormat).to.deep.equal({
      type: 'json_schema',
      schema: {
        type: 'array',
        items: {
          type: 'object',
          properties: { recipeName: { type: 'string' }, ingredients: { type: 'array', items: { type: 'string' } }, rating: { type: ['number', 'null'] } },
        },
      },
    });
    const format = (generationConfig: unknown) => geminiCodec.decodeRequest({ contents: [], generationConfig }, { model: 'm' }).responseFormat;
    expect(format({ responseMimeType: 'application/json', responseJsonSchema: { $ref: '#/x' } })).to.deep.equal({ type: 'json_schema', schema: { $ref: '#/x' } });
    expect(format({ response_mime_type: 'application/json' })).to.deep.equal({ type: 'json_object' });
    expect(format({ responseMimeType: 'text/plain' })).to.equal(undefined);
  });

  it('reports what it cannot carry: enum mime type, image output settings, unknown fields', () => {
    const ir = geminiCodec.decodeRequest(
      { contents: [], generationConfig: { responseMimeType: 'text/x.enum', responseModalities: ['TEXT'] }, cached_content: 'c', 'x\ny': 1 },
      { model: 'm' },
    );
    expect(ir.dropped).to.deep.equal(['generationConfig.responseMimeType=text/x.enum', 'generationConfig.responseModalities', 'cachedContent', 'unrecognised field']);
  });

  it('decodes images returned inside a functionResponse, and the legacy function role', () => {
    const ir = geminiCodec.decodeRequest(
      { contents: [{ role: 'function', parts: [{ functionResponse: { id: 'c1', name: 'shot', response: { output: 'ok' }, parts: [{ inlineData: { mimeType: 'image/png', data: 'AAAA' } }] } }] }] },
      { model: 'm' },
    );
    expect(ir.messages[0]).to.deep.equal({
      role: 'user',
      content: [{ type: 'tool_result', callId: 'c1', name: 'shot', content: [{ type: 'text', text: 'ok' }, { type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: 'AAAA' } }] }],
    });
  });

  it('maps function-calling modes (VALIDATED → auto)', () => {
    const mode = (functionCallingConfig: unknown) => geminiCodec.decodeRequest({ contents: [], toolConfig: { functionCallingConfig } }, { model: 'm' }).toolChoice;
    expect(mode({ mode: 'VALIDATED' })).to.deep.equal({ type: 'auto' });
    expect(mode({ mode: 'NONE' })).to.deep.equal({ type: 'none' });
    expect(mode({ mode: 'ANY' })).to.deep.equal({ type: 'required' });
    expect(mode({ mode: 'AUTO', allowedFunctionNames: ['a', 'b'] })).to.deep.equal({ type: 'allowed', mode: 'auto', names: ['a', 'b'] });
  });

  it('rejects built-in tools, missing model, bad roles and media it cannot carry', () => {
    const search = codecError(() => decode('google-search.json'));
    expect(search.message).to.contain('googleSearch').and.contain('codeExecution');
    expect(search.param).to.equal('tools');
    expect(codecError(() => geminiCodec.decodeRequest({ contents: [] })).param).to.equal('model');
    expect(codecError(() => geminiCodec.decodeRequest({ contents: [{ role: 'system', parts: [] }] }, { model: 'm' })).param).to.equal('contents[0].role');
    const audio = { contents: [{ parts: [{ inlineData: { mimeType: 'audio/wav', data: 'AA' } }] }] };
    expect(codecError(() => geminiCodec.decodeRequest(audio, { model: 'm' })).message).to.contain('audio/wav');
    expect(codecError(() => geminiCodec.decodeRequest({ contents: 'x' }, { model: 'm' })).param).to.equal('contents');
  });
});

describe('gemini codec: schema conversion', () => {
  it('lower-cases types, turns nullable into a type union and drops Gemini-only keywords', () => {
    expect(
      geminiSchemaToJsonSchema({
        type: 'OBJECT',
        property_ordering: ['a'],
        properties: { a: { type: 'STRING', nullable: true, max_length: 5, example: 'x' }, b: { any_of: [{ type: 'INTEGER' }], nullable: true } },
      }),
    ).to.deep.equal({
      type: 'object',
      properties: { a: { type: ['string', 'null'], maxLength: 5, examples: ['x'] }, b: { anyOf: [{ type: 'integer' }, { type: 'null' }] } },
    });
  });
});

describe('gemini codec: encodeRequest', () => {
  it('writes camelCase, no model field, systemInstruction and model roles', () => {
    const { body } = encode({ system: 'Be terse.', messages: [userText('hi'), { role: 'assistant', content: [{ type: 'text', text: 'hello' }] }, userText('more'), userText('again')] });
    expect(body).to.deep.equal({
      contents: [
        { role: 'user', parts: [{ text: 'hi' }] },
        { role: 'model', parts: [{ text: 'hello' }] },
        { role: 'user', parts: [{ text: 'more' }, { text: 'again' }] },
      ],
      systemInstruction: { parts: [{ text: 'Be terse.' }] },
    });
  });

  it('pairs tool results with their calls: name looked up, id kept, output object or string, error', () => {
    const { body } = encode({
      messages: [
        userText('q'),
        {
          role: 'assistant',
          content: [
            { type: 'tool_call', id: 'toolu_1', name: 'get_weather', arguments: '{"city":"Paris"}', signature: { vendor: 'gemini', value: 'sig' } },
            { type: 'tool_call', id: 'toolu_2', name: 'get_time', arguments: '', signature: { vendor: 'anthropic', value: 'nope' } },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'thanks' },
            { type: 'tool_result', callId: 'toolu_1', content: [{ type: 'text', text: '{"temp":15}' }] },
            { type: 'tool_result', callId: 'toolu_2', content: [{ type: 'text', text: 'down' }], isError: true },
          ],
        },
      ],
    });
    expect(body.contents).to.deep.equal([
      { role: 'user', parts: [{ text: 'q' }] },
      {
        role: 'model',
        parts: [
          { functionCall: { id: 'toolu_1', name: 'get_weather', args: { city: 'Paris' } }, thoughtSignature: 'sig' },
          { functionCall: { id: 'toolu_2', name: 'get_time', args: {} } },
        ],
      },
      {
        role: 'user',
        parts: [
          { functionResponse: { id: 'toolu_1', name: 'get_weather', response: { output: { temp: 15 } } } },
          { functionResponse: { id: 'toolu_2', name: 'get_time', response: { error: 'down' } } },
          { text: 'thanks' },
        ],
      },
    ]);
  });

  it('sends images of a tool result as inlineData parts after the function responses', () => {
    const result: IRMessage = {
      role: 'user',
      content: [{ type: 'tool_result', callId: 'c', name: 'shot', content: [{ type: 'text', text: 'done' }, { type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: 'AAAA' } }] }],
    };
    expect(encode({ messages: [result] }).body.contents).to.deep.equal([
      { role: 'user', parts: [{ functionResponse: { id: 'c', name: 'shot', response: { output: 'done' } } }, { inlineData: { mimeType: 'image/png', data: 'AAAA' } }] },
    ]);
  });

  it('needs a function name for every tool result', () => {
    const orphan: IRMessage = { role: 'user', content: [{ type: 'tool_result', callId: 'x', content: [{ type: 'text', text: 'r' }] }] };
    expect(codecError(() => encode({ messages: [orphan] })).message).to.contain('"x"');
    const named: IRMessage = { role: 'user', content: [{ type: 'tool_result', callId: 'x', name: 'f', content: [{ type: 'text', text: 'plain' }] }] };
    expect(encode({ messages: [named] }).body.contents).to.deep.equal([{ role: 'user', parts: [{ functionResponse: { id: 'x', name: 'f', response: { output: 'plain' } } }] }]);
  });

  it('puts a signature carried by an empty reasoning block back on the next part; drops other reasoning', () => {
    const { body, dropped } = encode({
      messages: [
        userText('q'),
        {
          role: 'assistant',
          content: [
            { type: 'reasoning', text: 'thinking…', signature: { vendor: 'gemini', value: 's1' } },
            { type: 'reasoning', text: 'claude', signature: { vendor: 'anthropic', value: 'a' } },
            { type: 'reasoning', text: '', signature: { vendor: 'gemini', value: 's2' } },
            { type: 'text', text: 'answer' },
          ],
        },
      ],
    });
    expect((body.contents as Array<{ parts: unknown[] }>)[1]?.parts).to.deep.equal([
      { text: 'thinking…', thought: true, thoughtSignature: 's1' },
      { text: 'answer', thoughtSignature: 's2' },
    ]);
    expect(dropped).to.deep.equal(['reasoning']);
  });

  it('encodes images: base64 → inlineData, data: URL → inlineData, other URLs → fileData', () => {
    const { body } = encode({
      messages: [
        {
          role: 'user',
          content: [
            { type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: 'AAAA' } },
            { type: 'image', source: { kind: 'url', url: 'data:image/webp;base64,BBBB' } },
            { type: 'image', source: { kind: 'url', url: 'gs://bucket/cat.JPG' } },
            { type: 'image', source: { kind: 'url', url: 'https://generativelanguage.googleapis.com/v1beta/files/abc' } },
            { type: 'document', mediaType: 'application/pdf', data: 'CCCC' },
          ],
        },
      ],
    });
    expect((body.contents as Array<{ parts: unknown[] }>)[0]?.parts).to.deep.equal([
      { inlineData: { mimeType: 'image/png', data: 'AAAA' } },
      { inlineData: { mimeType: 'image/webp', data: 'BBBB' } },
      { fileData: { fileUri: 'gs://bucket/cat.JPG', mimeType: 'image/jpeg' } },
      { fileData: { fileUri: 'https://generativelanguage.googleapis.com/v1beta/files/abc' } },
      { inlineData: { mimeType: 'application/pdf', data: 'CCCC' } },
    ]);
  });

  it('maps tools (parametersJsonSchema) and every tool choice (§8.6); reports what Gemini lacks', () => {
    const tools = [{ name: 'a', parameters: { type: 'object', properties: {} } }, { name: 'b', strict: true }];
    const config = (toolChoice: IRRequest['toolChoice']) => encode({ messages: [userText('q')], tools, toolChoice }).body.toolConfig;
    expect(encode({ messages: [userText('q')], tools }).body.tools).to.deep.equal([{ functionDeclarations: [{ name: 'a', parametersJsonSchema: { type: 'object', properties: {} } }, { name: 'b' }] }]);
    expect(config({ type: 'auto' })).to.deep.equal({ functionCallingConfig: { mode: 'AUTO' } });
    expect(config({ type: 'none' })).to.deep.equal({ functionCallingConfig: { mode: 'NONE' } });
    expect(config({ type: 'required' })).to.deep.equal({ functionCallingConfig: { mode: 'ANY' } });
    expect(config({ type: 'tool', name: 'a' })).to.deep.equal({ functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['a'] } });
    expect(config({ type: 'allowed', mode: 'auto', names: ['b'] })).to.deep.equal({ functionCallingConfig: { mode: 'AUTO', allowedFunctionNames: ['b'] } });
    const { dropped } = encode({ messages: [userText('q')], tools, parallelToolCalls: false, user: 'u' });
    expect(dropped).to.have.members(['tools.strict', 'parallel_tool_calls', 'user']);
  });

  it('maps generation settings, response formats and reasoning (§8.9–§8.11)', () => {
    const config = (request: Partial<IRRequest>) => encode({ messages: [userText('q')], ...request }).body.generationConfig;
    expect(config({ maxTokens: 100, temperature: 1.4, topP: 0.9, topK: 3, stop: ['x'], n: 2, seed: 7, presencePenalty: 0.1, frequencyPenalty: 0.2 })).to.deep.equal({
      temperature: 1.4,
      topP: 0.9,
      topK: 3,
      maxOutputTokens: 100,
      stopSequences: ['x'],
      candidateCount: 2,
      seed: 7,
      presencePenalty: 0.1,
      frequencyPenalty: 0.2,
    });
    expect(config({ responseFormat: { type: 'json_object' } })).to.deep.equal({ responseMimeType: 'application/json' });
    expect(config({ responseFormat: { type: 'json_schema', schema: { type: 'object' } } })).to.deep.equal({ responseMimeType: 'application/json', responseJsonSchema: { type: 'object' } });
    expect(config({ reasoning: { enabled: true, effort: 'low', includeThoughts: true } })).to.deep.equal({ thinkingConfig: { thinkingBudget: 2048, includeThoughts: true } });
    expect(config({ reasoning: { enabled: true, effort: 'high', budgetTokens: 500 } })).to.deep.equal({ thinkingConfig: { thinkingBudget: 500 } });
    expect(config({ reasoning: { enabled: true } })).to.deep.equal({ thinkingConfig: { thinkingBudget: -1 } });
    expect(config({ reasoning: { enabled: false } })).to.deep.equal({ thinkingConfig: { thinkingBudget: 0 } });
    expect(config({})).to.equal(undefined);
  });

  it('rejects tool-call arguments that are not a JSON object', () => {
    const bad: IRMessage = { role: 'assistant', content: [{ type: 'tool_call', id: 'c', name: 'f', arguments: '"str"' }] };
    expect(codecError(() => encode({ messages: [bad] })).status).to.equal(400);
  });

  it('round-trips every request fixture: decode → encode → decode gives the same IR (minus the dropped list)', () => {
    for (const name of ['text.json', 'multi-turn.json', 'snake-case.json', 'function-history.json', 'images.json', 'json-schema.json']) {
      const ir = decode(name);
      const ctx: RequestEncodeContext = { upstreamModel: ir.model, defaultMaxTokens: 1, dropped: [] };
      const again = geminiCodec.decodeRequest(geminiCodec.encodeRequest(ir, ctx), { model: ir.model, stream: ir.stream });
      expect({ ...again, dropped: undefined }, name).to.deep.equal({ ...ir, dropped: undefined });
    }
  });
});
