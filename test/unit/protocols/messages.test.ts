// Anthropic Messages codec: request decode/encode against the golden fixtures and the mapping rules of protocols.md.
import { expect } from 'chai';
import type { RequestEncodeContext } from '../../../src/protocols/codec.ts';
import type { IRMessage, IRRequest } from '../../../src/protocols/ir.ts';
import { messagesCodec } from '../../../src/protocols/messages/index.ts';
import { codecError, userText } from '../../helpers/codec.ts';
import { fixtureJson } from '../../helpers/fixtures.ts';

const decode = (name: string): IRRequest => messagesCodec.decodeRequest(fixtureJson('messages', 'requests', name));

function encode(request: Partial<IRRequest> & { messages: IRMessage[] }, defaultMaxTokens = 4096): { body: Record<string, unknown>; dropped: string[] } {
  const ctx: RequestEncodeContext = { upstreamModel: 'claude-upstream', defaultMaxTokens, dropped: [] };
  const body = messagesCodec.encodeRequest({ model: 'client-model', stream: false, ...request }, ctx);
  return { body, dropped: ctx.dropped };
}

describe('messages codec: decodeRequest', () => {
  it('decodes a plain text request', () => {
    expect(decode('text.json')).to.deep.equal({
      model: 'claude-sonnet-4-5',
      maxTokens: 1024,
      stream: false,
      messages: [userText('Hello, Claude')],
    });
  });

  it('joins system blocks with \\n, keeps sampling settings and reports what it cannot carry', () => {
    const ir = decode('system-multi-turn.json');
    expect(ir.system).to.equal('You are a terse assistant.\nAnswer in English.');
    expect(ir.messages.map((m) => m.role)).to.deep.equal(['user', 'assistant', 'user']);
    expect(ir).to.include({ temperature: 0.4, topP: 0.9, topK: 40, user: 'user-7f3a', maxTokens: 2048 });
    expect(ir.stop).to.deep.equal(['\n\nHuman:', 'END']);
    expect(ir.dropped).to.have.members(['cache_control', 'service_tier']);
  });

  it('decodes tools and tool_choice any + disable_parallel_tool_use', () => {
    const ir = decode('tools.json');
    expect(ir.tools?.map((t) => t.name)).to.deep.equal(['get_weather', 'get_time']);
    expect(ir.tools?.[0]?.parameters).to.deep.include({ type: 'object', required: ['location'] });
    expect(ir.toolChoice).to.deep.equal({ type: 'required' });
    expect(ir.parallelToolCalls).to.equal(false);
    expect(ir.dropped).to.deep.equal(['cache_control']);
  });

  it('decodes tool_use history as JSON-string arguments and tool_result (string, blocks, is_error)', () => {
    const ir = decode('tool-history.json');
    expect(ir.toolChoice).to.deep.equal({ type: 'tool', name: 'get_weather' });
    expect(ir.messages[1]?.content).to.deep.equal([
      { type: 'text', text: "I'll check both." },
      { type: 'tool_call', id: 'toolu_01A09q90qw90lq917835lq9', name: 'get_weather', arguments: '{"location":"Paris, France"}' },
      { type: 'tool_call', id: 'toolu_01B18r81rx81mr826724mr8', name: 'get_time', arguments: '{"timezone":"Europe/Paris"}' },
    ]);
    expect(ir.messages[2]?.content).to.deep.equal([
      { type: 'tool_result', callId: 'toolu_01A09q90qw90lq917835lq9', content: [{ type: 'text', text: '15 degrees, light rain' }] },
      { type: 'tool_result', callId: 'toolu_01B18r81rx81mr826724mr8', content: [{ type: 'text', text: 'time service unavailable' }], isError: true },
      { type: 'text', text: 'Please summarise.' },
    ]);
  });

  it('decodes base64 and url images and a PDF document', () => {
    const content = decode('images.json').messages[0]?.content;
    expect(content?.[0]).to.deep.include({ type: 'image' }).and.nested.include({ 'source.kind': 'base64', 'source.mediaType': 'image/png' });
    expect(content?.[1]).to.deep.equal({
      type: 'image',
      source: { kind: 'url', url: 'https://upload.wikimedia.org/wikipedia/commons/a/a7/Camponotus_flavomarginatus_ant.jpg' },
    });
    expect(content?.[2]).to.deep.include({ type: 'document', mediaType: 'application/pdf', filename: 'report.pdf' });
  });

  it('decodes thinking config and signed / redacted thinking blocks', () => {
    const ir = decode('thinking.json');
    expect(ir.stream).to.equal(true);
    expect(ir.reasoning).to.deep.equal({ enabled: true, budgetTokens: 10000, includeThoughts: true });
    const [thinking, redacted] = ir.messages[1]?.content ?? [];
    expect(thinking).to.deep.include({ type: 'reasoning' }).and.nested.include({ 'signature.vendor': 'anthropic' });
    expect(redacted).to.deep.include({ type: 'reasoning', text: '' }).and.to.have.property('redacted').that.is.a('string');
  });

  it('decodes output_config (json_schema format, effort)', () => {
    const ir = decode('structured-output.json');
    expect(ir.responseFormat).to.deep.include({ type: 'json_schema' }).and.nested.include({ 'schema.type': 'object' });
    expect(ir.reasoning).to.deep.equal({ enabled: true, effort: 'high' });
  });

  it('decodes adaptive and disabled thinking', () => {
    const base = { model: 'm', max_tokens: 10, messages: [] };
    expect(messagesCodec.decodeRequest({ ...base, thinking: { type: 'adaptive' } }).reasoning).to.deep.equal({ enabled: true, includeThoughts: true });
    expect(messagesCodec.decodeRequest({ ...base, thinking: { type: 'disabled' } }).reasoning).to.deep.equal({ enabled: false });
  });

  it('lists unknown fields as dropped, with header-safe names', () => {
    const ir = messagesCodec.decodeRequest({ model: 'm', max_tokens: 5, messages: [], container: 'c', 'bad\r\nname': 1, metadata: { user_id: 'u', trace: 1 } });
    expect(ir.dropped).to.deep.equal(['metadata.trace', 'container', 'unrecognised field']);
  });

  it('rejects server tools with a 400 naming them', () => {
    const error = codecError(() => decode('server-tools.json'));
    expect(error.status).to.equal(400);
    expect(error.param).to.equal('tools');
    expect(error.message).to.contain('web_search_20250305');
  });

  it('requires max_tokens, messages and valid roles', () => {
    const missing = codecError(() => messagesCodec.decodeRequest({ model: 'm', messages: [] }));
    expect(missing.param).to.equal('max_tokens');
    expect(missing.message).to.contain('max_tokens');
    expect(codecError(() => messagesCodec.decodeRequest({ model: 'm', max_tokens: 5 })).param).to.equal('messages');
    expect(codecError(() => messagesCodec.decodeRequest({ model: 'm', max_tokens: 5, messages: [{ role: 'system', content: 'x' }] })).param).to.equal('messages[0].role');
    expect(codecError(() => messagesCodec.decodeRequest('nope')).status).to.equal(400);
  });

  it('rejects content it cannot represent (file sources, unknown blocks)', () => {
    const withBlock = (block: unknown) => ({ model: 'm', max_tokens: 5, messages: [{ role: 'user', content: [block] }] });
    expect(codecError(() => messagesCodec.decodeRequest(withBlock({ type: 'image', source: { type: 'file', file_id: 'f' } }))).message).to.contain('file');
    expect(codecError(() => messagesCodec.decodeRequest(withBlock({ type: 'server_tool_use', id: 'x' }))).param).to.equal('messages[0].content[0].type');
  });
});

describe('messages codec: encodeRequest', () => {
  it('fills max_tokens from the default and uses the upstream model', () => {
    const { body } = encode({ messages: [userText('hi')], system: 'Be brief.', user: 'u1', stream: true });
    expect(body).to.deep.equal({
      model: 'claude-upstream',
      max_tokens: 4096,
      system: 'Be brief.',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
      metadata: { user_id: 'u1' },
      stream: true,
    });
  });

  it('clamps temperature to 1 and says so; drops seed and penalties', () => {
    const { body, dropped } = encode({ messages: [userText('hi')], temperature: 1.7, seed: 3, presencePenalty: 1, frequencyPenalty: 1 });
    expect(body.temperature).to.equal(1);
    expect(dropped).to.have.members(['temperature>1 clamped', 'seed', 'presence_penalty', 'frequency_penalty']);
  });

  it('rejects n > 1 with the documented message', () => {
    const error = codecError(() => encode({ messages: [userText('hi')], n: 2 }));
    expect(error.message).to.equal('n > 1 is not supported by Anthropic-type providers');
    expect(error.status).to.equal(400);
    expect(error.param).to.equal('n');
  });

  it('merges consecutive same-role messages and puts tool results first', () => {
    const { body } = encode({
      messages: [
        userText('q'),
        { role: 'assistant', content: [{ type: 'tool_call', id: 'c1', name: 'f', arguments: '' }] },
        { role: 'assistant', content: [{ type: 'tool_call', id: 'c2', name: 'g', arguments: '{"a":1}' }] },
        userText('also this'),
        { role: 'user', content: [{ type: 'tool_result', callId: 'c1', content: [{ type: 'text', text: 'r1' }] }] },
        { role: 'user', content: [{ type: 'tool_result', callId: 'c2', content: [{ type: 'text', text: 'bad' }], isError: true }] },
      ],
    });
    expect(body.messages).to.deep.equal([
      { role: 'user', content: [{ type: 'text', text: 'q' }] },
      {
        role: 'assistant',
        content: [
          { type: 'tool_use', id: 'c1', name: 'f', input: {} },
          { type: 'tool_use', id: 'c2', name: 'g', input: { a: 1 } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'c1', content: [{ type: 'text', text: 'r1' }] },
          { type: 'tool_result', tool_use_id: 'c2', content: [{ type: 'text', text: 'bad' }], is_error: true },
          { type: 'text', text: 'also this' },
        ],
      },
    ]);
  });

  it('rejects tool-call arguments that are not a JSON object', () => {
    const call = (args: string): IRMessage => ({ role: 'assistant', content: [{ type: 'tool_call', id: 'c', name: 'f', arguments: args }] });
    expect(codecError(() => encode({ messages: [userText('q'), call('{oops')] })).status).to.equal(400);
    expect(codecError(() => encode({ messages: [userText('q'), call('[1,2]')] })).message).to.contain('JSON object');
  });

  it('maps tool definitions and every tool choice (§8.6)', () => {
    const tools = [{ name: 'a' }, { name: 'b', description: 'B', parameters: { properties: { x: { type: 'string' } } } }];
    const choice = (toolChoice: IRRequest['toolChoice'], parallelToolCalls?: boolean) =>
      encode({ messages: [userText('q')], tools, toolChoice, ...(parallelToolCalls === undefined ? {} : { parallelToolCalls }) }).body;
    expect(choice(undefined).tools).to.deep.equal([
      { name: 'a', input_schema: { type: 'object', properties: {} } },
      { name: 'b', description: 'B', input_schema: { type: 'object', properties: { x: { type: 'string' } } } },
    ]);
    expect(choice(undefined).tool_choice).to.equal(undefined);
    expect(choice({ type: 'auto' }).tool_choice).to.deep.equal({ type: 'auto' });
    expect(choice({ type: 'none' }).tool_choice).to.deep.equal({ type: 'none' });
    expect(choice({ type: 'required' }, false).tool_choice).to.deep.equal({ type: 'any', disable_parallel_tool_use: true });
    expect(choice({ type: 'tool', name: 'b' }).tool_choice).to.deep.equal({ type: 'tool', name: 'b' });
    expect(choice(undefined, false).tool_choice).to.deep.equal({ type: 'auto', disable_parallel_tool_use: true });
    const allowed = choice({ type: 'allowed', mode: 'required', names: ['b'] });
    expect((allowed.tools as Array<{ name: string }>).map((t) => t.name)).to.deep.equal(['b']);
    expect(allowed.tool_choice).to.deep.equal({ type: 'any' });
  });

  it('maps response formats to output_config.format', () => {
    const format = (responseFormat: IRRequest['responseFormat']) => encode({ messages: [userText('q')], responseFormat }).body.output_config;
    expect(format({ type: 'text' })).to.equal(undefined);
    expect(format({ type: 'json_object' })).to.deep.equal({ format: { type: 'json_schema', schema: { type: 'object' } } });
    expect(format({ type: 'json_schema', name: 'n', schema: { type: 'array' } })).to.deep.equal({ format: { type: 'json_schema', schema: { type: 'array' } } });
  });

  it('turns effort into a thinking budget per §8.11 and keeps max_tokens above it', () => {
    const think = (reasoning: IRRequest['reasoning'], maxTokens?: number) => encode({ messages: [userText('q')], reasoning, ...(maxTokens === undefined ? {} : { maxTokens }) }).body;
    const table = { minimal: 1024, low: 2048, medium: 8192, high: 24576 } as const;
    for (const [effort, budget] of Object.entries(table)) {
      const body = think({ enabled: true, effort: effort as keyof typeof table }, 64000);
      expect(body.thinking, effort).to.deep.equal({ type: 'enabled', budget_tokens: budget });
      expect(body.max_tokens).to.equal(64000);
    }
    expect(think({ enabled: true, effort: 'high' }, 1000)).to.include({ max_tokens: 25576 });
    expect(think({ enabled: true, budgetTokens: 100 }, 5000).thinking).to.deep.equal({ type: 'enabled', budget_tokens: 1024 });
    expect(think({ enabled: true }, 20000).thinking).to.deep.equal({ type: 'enabled', budget_tokens: 8192 });
    expect(think({ enabled: false }).thinking).to.equal(undefined);
    expect(think({ enabled: true, effort: 'none' }).thinking).to.equal(undefined);
  });

  it('leaves out sampling settings Anthropic rejects while thinking', () => {
    const { body, dropped } = encode({ messages: [userText('q')], reasoning: { enabled: true, budgetTokens: 2000 }, maxTokens: 9000, temperature: 0.3, topK: 5, topP: 0.5 });
    expect(body).to.not.have.any.keys('temperature', 'top_k', 'top_p');
    expect(dropped).to.have.members(['temperature (thinking enabled)', 'top_k (thinking enabled)', 'top_p (thinking enabled)']);
  });

  it('keeps only Anthropic-signed or redacted reasoning', () => {
    const { body, dropped } = encode({
      messages: [
        userText('q'),
        {
          role: 'assistant',
          content: [
            { type: 'reasoning', text: 'mine', signature: { vendor: 'anthropic', value: 'sig' } },
            { type: 'reasoning', text: 'theirs', signature: { vendor: 'gemini', value: 'g' } },
            { type: 'reasoning', text: 'unsigned' },
            { type: 'reasoning', text: '', redacted: 'opaque' },
            { type: 'text', text: 'answer' },
          ],
        },
      ],
    });
    expect((body.messages as Array<{ content: unknown[] }>)[1]?.content).to.deep.equal([
      { type: 'thinking', thinking: 'mine', signature: 'sig' },
      { type: 'redacted_thinking', data: 'opaque' },
      { type: 'text', text: 'answer' },
    ]);
    expect(dropped).to.deep.equal(['reasoning']);
  });

  it('accepts url images and jpeg/png/gif/webp base64 only; maps documents', () => {
    const image = (mediaType: string): IRMessage => ({ role: 'user', content: [{ type: 'image', source: { kind: 'base64', mediaType, data: 'AAAA' } }] });
    expect(codecError(() => encode({ messages: [image('image/bmp')] })).message).to.contain('image/bmp');
    const { body } = encode({
      messages: [
        {
          role: 'user',
          content: [
            { type: 'image', source: { kind: 'url', url: 'https://x/y.png' } },
            { type: 'document', mediaType: 'text/plain', data: Buffer.from('hello').toString('base64'), filename: 'a.txt' },
          ],
        },
      ],
    });
    expect((body.messages as Array<{ content: unknown[] }>)[0]?.content).to.deep.equal([
      { type: 'image', source: { type: 'url', url: 'https://x/y.png' } },
      { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'hello' }, title: 'a.txt' },
    ]);
    const doc: IRMessage = { role: 'user', content: [{ type: 'document', mediaType: 'application/msword', data: 'AA' }] };
    expect(codecError(() => encode({ messages: [doc] })).status).to.equal(400);
  });

  it('round-trips every request fixture: decode → encode → decode gives the same IR', () => {
    for (const name of ['text.json', 'system-multi-turn.json', 'tools.json', 'tool-history.json', 'images.json', 'thinking.json']) {
      const ir = decode(name);
      const ctx: RequestEncodeContext = { upstreamModel: ir.model, defaultMaxTokens: 1, dropped: [] };
      const again = messagesCodec.decodeRequest(messagesCodec.encodeRequest(ir, ctx));
      expect({ ...again, dropped: undefined }, name).to.deep.equal({ ...ir, dropped: undefined });
    }
  });
});
