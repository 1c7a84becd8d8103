// Same-protocol proxying driven by the official SDKs: each client talks to a provider of its own type
// through the gateway, non-streaming and streaming. Asserts what reached the upstream too.
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import { expect } from 'chai';
import OpenAI from 'openai';
import { sendJson, sendSse, startFakeUpstream, type FakeUpstream } from '../../helpers/fake-upstream.ts';
import { startTestGateway, testConfig, TEST_KEY, type TestGateway } from '../../helpers/gateway.ts';

const CHAT_RESPONSE = {
  id: 'chatcmpl-1',
  object: 'chat.completion',
  created: 1723031664,
  model: 'gpt-4o-mini-2024',
  choices: [{ index: 0, message: { role: 'assistant', content: 'Hi there', refusal: null }, logprobs: null, finish_reason: 'stop' }],
  usage: { prompt_tokens: 7, completion_tokens: 2, total_tokens: 9 },
};

const chatChunk = (delta: Record<string, unknown>, finish: string | null = null): string =>
  `data: ${JSON.stringify({ id: 'chatcmpl-2', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] })}\n\n`;

const anthropicFrame = (type: string, data: Record<string, unknown>): string => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;

const MESSAGE = {
  id: 'msg_1',
  type: 'message',
  role: 'assistant',
  model: 'claude-sonnet-4-5',
  content: [{ type: 'text', text: 'Bonjour' }],
  stop_reason: 'end_turn',
  stop_sequence: null,
  usage: { input_tokens: 5, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
};

const geminiChunk = (text: string, finish?: string): string =>
  `data: ${JSON.stringify({ candidates: [{ content: { role: 'model', parts: [{ text }] }, index: 0, ...(finish ? { finishReason: finish } : {}) }], usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 2, totalTokenCount: 5 }, modelVersion: 'gemini-2.5-flash', responseId: 'r1' })}\r\n\r\n`;

describe('same-protocol proxying with the official SDKs', () => {
  let openaiUp: FakeUpstream;
  let anthropicUp: FakeUpstream;
  let geminiUp: FakeUpstream;
  let gw: TestGateway;

  before(async () => {
    openaiUp = await startFakeUpstream();
    anthropicUp = await startFakeUpstream();
    geminiUp = await startFakeUpstream();
    gw = await startTestGateway(
      testConfig({
        providers: {
          oai: { type: 'openai', baseUrl: `${openaiUp.url}/v1`, apiKey: 'sk-provider-openai', responses: true },
          ant: { type: 'anthropic', baseUrl: anthropicUp.url, apiKey: 'sk-provider-anthropic' },
          goo: { type: 'gemini', baseUrl: geminiUp.url, apiKey: 'provider-gemini-key' },
        },
        models: [
          { name: 'gpt-4o-mini', targets: [{ provider: 'oai', model: 'gpt-4o-mini-2024' }] },
          { name: 'claude', targets: [{ provider: 'ant', model: 'claude-sonnet-4-5' }] },
          { name: 'gemini-flash', targets: [{ provider: 'goo', model: 'gemini-2.5-flash' }] },
        ],
      }),
    );
  });
  after(async () => {
    await gw.close();
    await Promise.all([openaiUp.close(), anthropicUp.close(), geminiUp.close()]);
  });

  const openai = (): OpenAI => new OpenAI({ apiKey: TEST_KEY, baseURL: `${gw.url}/v1`, maxRetries: 0 });
  const anthropic = (): Anthropic => new Anthropic({ apiKey: null, defaultHeaders: { 'x-api-key': TEST_KEY }, baseURL: gw.url, maxRetries: 0 });
  const genai = (): GoogleGenAI => new GoogleGenAI({ apiKey: TEST_KEY, httpOptions: { baseUrl: gw.url } });

  it('runs on the Node 24 the project brings', () => {
    expect(process.version).to.match(/^v24\./);
  });

  it('OpenAI chat: rewrites the model, swaps credentials, returns the body untouched', async () => {
    openaiUp.setHandler((_req, res) => sendJson(res, 200, CHAT_RESPONSE));
    const completion = await openai().chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hello' }] });
    expect(completion.choices[0]?.message.content).to.equal('Hi there');
    const seen = openaiUp.requests.at(-1)!;
    expect(seen.path).to.equal('/v1/chat/completions');
    expect((seen.body as { model: string }).model).to.equal('gpt-4o-mini-2024');
    expect(seen.headers.authorization).to.equal('Bearer sk-provider-openai');
    expect(JSON.stringify(seen.headers)).not.to.contain(TEST_KEY);
  });

  it('OpenAI chat streaming arrives chunk by chunk and ends with [DONE]', async () => {
    openaiUp.setHandler((_req, res) =>
      sendSse(res, [chatChunk({ role: 'assistant', content: '' }), chatChunk({ content: 'Hel' }), chatChunk({ content: 'lo' }), chatChunk({}, 'stop'), 'data: [DONE]\n\n'], 20),
    );
    const stream = await openai().chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }], stream: true });
    const arrivals: number[] = [];
    let text = '';
    for await (const chunk of stream) {
      arrivals.push(Date.now());
      text += chunk.choices[0]?.delta.content ?? '';
    }
    expect(text).to.equal('Hello');
    expect(arrivals.length).to.be.greaterThanOrEqual(4);
    expect(arrivals.at(-1)! - arrivals[0]!).to.be.greaterThan(30, 'chunks were buffered instead of piped');
  });

  it('OpenAI Responses passes through to a Responses-capable provider', async () => {
    openaiUp.setHandler((_req, res) =>
      sendJson(res, 200, {
        id: 'resp_1', object: 'response', created_at: 1, status: 'completed', model: 'gpt-4o-mini-2024', error: null, incomplete_details: null,
        instructions: null, metadata: {}, parallel_tool_calls: true, temperature: 1, top_p: 1, tool_choice: 'auto', tools: [],
        output: [{ type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'pong', annotations: [] }] }],
        usage: { input_tokens: 3, output_tokens: 1, total_tokens: 4, input_tokens_details: { cached_tokens: 0 }, output_tokens_details: { reasoning_tokens: 0 } },
      }),
    );
    const response = await openai().responses.create({ model: 'gpt-4o-mini', input: 'ping' });
    expect(response.output_text).to.equal('pong');
    expect(openaiUp.requests.at(-1)!.path).to.equal('/v1/responses');
  });

  it('Anthropic messages: x-api-key swapped, anthropic-version and anthropic-beta forwarded', async () => {
    anthropicUp.setHandler((_req, res) => sendJson(res, 200, MESSAGE));
    const message = await anthropic().messages.create(
      { model: 'claude', max_tokens: 64, messages: [{ role: 'user', content: 'Salut' }] },
      { headers: { 'anthropic-beta': 'tools-2024-04-04' } },
    );
    expect(message.content[0]).to.deep.include({ type: 'text', text: 'Bonjour' });
    const seen = anthropicUp.requests.at(-1)!;
    expect(seen.path).to.equal('/v1/messages');
    expect(seen.headers['x-api-key']).to.equal('sk-provider-anthropic');
    expect(seen.headers['anthropic-version']).to.equal('2026-10-21');
    expect(seen.headers['anthropic-beta']).to.equal('tools-2024-04-04');
    expect(seen.headers.authorization).to.equal(undefined);
    expect((seen.body as { model: string }).model).to.equal('claude-sonnet-4-5');
  });

  it('Anthropic streaming is piped event by event', async () => {
    anthropicUp.setHandler((_req, res) =>
      sendSse(res, [
        anthropicFrame('message_start', { message: { ...MESSAGE, content: [], stop_reason: null, usage: { input_tokens: 5, output_tokens: 0 } } }),
        anthropicFrame('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
        anthropicFrame('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'Bon' } }),
        anthropicFrame('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'jour' } }),
        anthropicFrame('content_block_stop', { index: 0 }),
        anthropicFrame('message_delta', { delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 2 } }),
        anthropicFrame('message_stop', {}),
      ], 5),
    );
    const stream = anthropic().messages.stream({ model: 'claude', max_tokens: 64, messages: [{ role: 'user', content: 'Salut' }] });
    const final = await stream.finalMessage();
    expect(final.content[0]).to.deep.include({ type: 'text', text: 'Bonjour' });
    expect(final.usage.output_tokens).to.equal(2);
  });

  it('Anthropic count_tokens passes through', async () => {
    anthropicUp.setHandler((_req, res) => sendJson(res, 200, { input_tokens: 42 }));
    const counted = await anthropic().messages.countTokens({ model: 'claude', messages: [{ role: 'user', content: 'count me' }] });
    expect(counted.input_tokens).to.equal(42);
    expect(anthropicUp.requests.at(-1)!.path).to.equal('/v1/messages/count_tokens');
  });

  it('Gemini generateContent: model in the path, x-goog-api-key swapped', async () => {
    geminiUp.setHandler((_req, res) =>
      sendJson(res, 200, {
        candidates: [{ content: { role: 'model', parts: [{ text: 'Ciao' }] }, finishReason: 'STOP', index: 0 }],
        usageMetadata: { promptTokenCount: 2, candidatesTokenCount: 1, totalTokenCount: 3 },
        modelVersion: 'gemini-2.5-flash',
      }),
    );
    const result = await genai().models.generateContent({ model: 'gemini-flash', contents: 'Hello' });
    expect(result.text).to.equal('Ciao');
    const seen = geminiUp.requests.at(-1)!;
    expect(seen.path).to.equal('/v1beta/models/gemini-2.5-flash:generateContent');
    expect(seen.headers['x-goog-api-key']).to.equal('provider-gemini-key');
    expect(JSON.stringify(seen.headers)).not.to.contain(TEST_KEY);
  });

  it('Gemini streamGenerateContent with alt=sse streams chunks', async () => {
    geminiUp.setHandler((_req, res) => sendSse(res, [geminiChunk('Ci'), geminiChunk('ao', 'STOP')], 5));
    const stream = await genai().models.generateContentStream({ model: 'gemini-flash', contents: 'Hello' });
    let text = '';
    for await (const chunk of stream) text += chunk.text ?? '';
    expect(text).to.equal('Ciao');
    expect(geminiUp.requests.at(-1)!.path).to.equal('/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse');
  });

  it('Gemini countTokens passes through', async () => {
    geminiUp.setHandler((_req, res) => sendJson(res, 200, { totalTokens: 11 }));
    const counted = await genai().models.countTokens({ model: 'gemini-flash', contents: 'count me' });
    expect(counted.totalTokens).to.equal(11);
  });

  it('records token usage from proxied responses in the access log', async () => {
    openaiUp.setHandler((_req, res) => sendJson(res, 200, CHAT_RESPONSE));
    await openai().chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hello' }] });
    await new Promise((r) => setTimeout(r, 20));
    const access = gw.logs.filter((l) => l.message === 'access').at(-1);
    expect(access).to.include({ keyName: 'ops', protocol: 'chat', model: 'gpt-4o-mini', provider: 'oai', upstreamModel: 'gpt-4o-mini-2024', status: 200 });
    expect(access!.usage).to.deep.include({ inputTokens: 7, outputTokens: 2 });
    const line = JSON.stringify(gw.logs);
    expect(line).not.to.contain(TEST_KEY);
  });
});
