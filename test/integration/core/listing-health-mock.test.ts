// Model listings per vendor shape (filtered by key), health/readiness, and the built-in mock provider
// answering every protocol with no network and no keys.
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import { expect } from 'chai';
import OpenAI from 'openai';
import { OTHER_KEY, startTestGateway, testConfig, TEST_KEY, type TestGateway } from '../../helpers/gateway.ts';

describe('model listings, health and the mock provider', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway(
      testConfig({
        providers: { mock: { type: 'mock' } },
        models: [
          { name: 'demo', targets: [{ provider: 'mock', model: 'demo' }] },
          { name: 'other-demo', targets: [{ provider: 'mock', model: 'demo' }] },
          { name: 'demo-image', type: 'image', sizes: ['256x256'], targets: [{ provider: 'mock', model: 'img' }] },
          { name: 'demo-*', targets: [{ provider: 'mock', model: 'demo' }] },
        ],
      }),
    );
  });
  after(() => gw.close());

  it('GET /healthz and /readyz answer 200', async () => {
    expect((await fetch(`${gw.url}/healthz`)).status).to.equal(200);
    const ready = await fetch(`${gw.url}/readyz`);
    expect(ready.status).to.equal(200);
    expect(await ready.json()).to.deep.equal({ status: 'ready' });
  });

  it('OpenAI listing shows only concrete models the key may use', async () => {
    const all = await new OpenAI({ apiKey: TEST_KEY, baseURL: `${gw.url}/v1`, maxRetries: 0 }).models.list();
    expect(all.data.map((m) => m.id)).to.deep.equal(['demo', 'other-demo', 'demo-image']);
    const other = await new OpenAI({ apiKey: OTHER_KEY, baseURL: `${gw.url}/v1`, maxRetries: 0 }).models.list();
    expect(other.data.map((m) => m.id)).to.deep.equal(['other-demo']);
  });

  it('Anthropic listing when the request carries anthropic-version', async () => {
    const client = new Anthropic({ apiKey: null, defaultHeaders: { 'x-api-key': TEST_KEY }, baseURL: gw.url, maxRetries: 0 });
    const page = await client.models.list();
    expect(page.data.map((m) => m.id)).to.deep.equal(['demo', 'other-demo']);
    expect(page.data[0]).to.include({ type: 'model' });
  });

  it('Gemini listing with models/ names and supportedGenerationMethods', async () => {
    const r = await fetch(`${gw.url}/v1beta/models`, { headers: { 'x-goog-api-key': TEST_KEY } });
    const body = (await r.json()) as { models: Array<{ name: string; supportedGenerationMethods: string[] }> };
    expect(body.models.map((m) => m.name)).to.deep.equal(['models/demo', 'models/other-demo']);
    expect(body.models[0]!.supportedGenerationMethods).to.include('generateContent');
    const one = await fetch(`${gw.url}/v1beta/models/demo`, { headers: { 'x-goog-api-key': TEST_KEY } });
    expect(((await one.json()) as { name: string }).name).to.equal('models/demo');
  });

  it('mock echoes through Chat, streaming included', async () => {
    const client = new OpenAI({ apiKey: TEST_KEY, baseURL: `${gw.url}/v1`, maxRetries: 0 });
    const one = await client.chat.completions.create({ model: 'demo', messages: [{ role: 'user', content: 'hello gateway world' }] });
    expect(one.choices[0]?.message.content).to.equal('hello gateway world');
    const stream = await client.chat.completions.create({ model: 'demo-x', messages: [{ role: 'user', content: 'one two three four five' }], stream: true });
    const parts: string[] = [];
    for await (const chunk of stream) if (chunk.choices[0]?.delta.content) parts.push(chunk.choices[0].delta.content);
    expect(parts.join('')).to.equal('one two three four five');
    expect(parts.length).to.be.greaterThan(1);
  });

  it('mock answers Responses, Anthropic and Gemini clients in their own shapes', async () => {
    const responses = await new OpenAI({ apiKey: TEST_KEY, baseURL: `${gw.url}/v1`, maxRetries: 0 }).responses.create({ model: 'demo', input: 'ping' });
    expect(responses.output_text).to.equal('ping');
    const anthropic = new Anthropic({ apiKey: null, defaultHeaders: { 'x-api-key': TEST_KEY }, baseURL: gw.url, maxRetries: 0 });
    const message = await anthropic.messages.create({ model: 'demo', max_tokens: 10, messages: [{ role: 'user', content: 'salut' }] });
    expect(message.content[0]).to.deep.include({ type: 'text', text: 'salut' });
    const streamed = await anthropic.messages.stream({ model: 'demo', max_tokens: 10, messages: [{ role: 'user', content: 'a b c d' }] }).finalText();
    expect(streamed).to.equal('a b c d');
    const genai = new GoogleGenAI({ apiKey: TEST_KEY, httpOptions: { baseUrl: gw.url } });
    expect((await genai.models.generateContent({ model: 'demo', contents: 'ciao' })).text).to.equal('ciao');
    let text = '';
    for await (const chunk of await genai.models.generateContentStream({ model: 'demo', contents: 'x y z' })) text += chunk.text ?? '';
    expect(text).to.equal('x y z');
  });

  it('mock serves the Gemini JSON-array stream when alt=sse is absent', async () => {
    const r = await fetch(`${gw.url}/v1beta/models/demo:streamGenerateContent`, {
      method: 'POST',
      headers: { 'x-goog-api-key': TEST_KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ contents: [{ parts: [{ text: 'array form' }] }] }),
    });
    const chunks = (await r.json()) as Array<{ candidates: Array<{ content: { parts: Array<{ text?: string }> } }> }>;
    expect(Array.isArray(chunks)).to.equal(true);
    expect(chunks.map((c) => c.candidates?.[0]?.content.parts.map((p) => p.text ?? '').join('') ?? '').join('')).to.equal('array form');
  });

  it('an image model on a chat route is a clear 400', async () => {
    const r = await fetch(`${gw.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'demo-image', messages: [{ role: 'user', content: 'x' }] }),
    });
    expect(r.status).to.equal(400);
    expect(((await r.json()) as { error: { message: string } }).error.message).to.contain('/v1/images/batches');
  });
});
