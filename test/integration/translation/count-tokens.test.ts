// count_tokens for a non-native upstream: Anthropic ⇄ Gemini translate and call the upstream's own count
// endpoint ({input_tokens} ⇄ {totalTokens}); an OpenAI-type upstream has none, so the gateway estimates
// with gpt-tokenizer and says so in `x-gateway-token-count: estimate`.
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import { expect } from 'chai';
import { estimateInputTokens } from '../../../src/proxy/translate/index.ts';
import { codecFor } from '../../../src/protocols/index.ts';
import { TEST_KEY } from '../../helpers/gateway.ts';
import { UPSTREAM_MODEL } from './fake-providers.ts';
import { modelFor, startWorld, type World } from './harness.ts';

type Json = Record<string, unknown>;

describe('count_tokens across upstream types', function () {
  let world: World;
  let anthropic: Anthropic;
  let genai: GoogleGenAI;
  before(async () => {
    world = await startWorld();
    anthropic = new Anthropic({ baseURL: world.gateway.url, apiKey: null, defaultHeaders: { 'x-api-key': TEST_KEY }, maxRetries: 0 });
    genai = new GoogleGenAI({ apiKey: TEST_KEY, httpOptions: { baseUrl: world.gateway.url } });
  });
  after(() => world.close());

  const question = [{ role: 'user' as const, content: 'How many tokens is this sentence, roughly?' }];

  it('Anthropic client → Gemini upstream: calls :countTokens and answers {input_tokens}', async () => {
    const result = await anthropic.messages.countTokens({ model: modelFor('gemini'), messages: question });
    expect(result.input_tokens).to.equal(42);
    const sent = world.providers.gemini.last();
    expect(sent.path).to.equal(`/v1beta/models/${UPSTREAM_MODEL}:countTokens`);
    expect(sent.body).to.deep.equal({ contents: [{ role: 'user', parts: [{ text: question[0]!.content }] }] });
  });

  it('Anthropic client with system and tools → Gemini upstream: wraps them in generateContentRequest', async () => {
    await anthropic.messages.countTokens({
      model: modelFor('gemini'),
      system: 'Be brief.',
      tools: [{ name: 'get_weather', input_schema: { type: 'object', properties: { city: { type: 'string' } } } }],
      messages: question,
    });
    const body = world.providers.gemini.last().body as { generateContentRequest?: Json };
    expect(body.generateContentRequest?.model).to.equal(`models/${UPSTREAM_MODEL}`);
    expect(body.generateContentRequest?.systemInstruction).to.deep.equal({ parts: [{ text: 'Be brief.' }] });
    expect(body.generateContentRequest).to.have.property('tools');
    expect(body.generateContentRequest).not.to.have.property('generationConfig');
  });

  it('Gemini client → Anthropic upstream: calls /v1/messages/count_tokens and answers {totalTokens}', async () => {
    const result = await genai.models.countTokens({ model: modelFor('anthropic'), contents: 'How many tokens?' });
    expect(result.totalTokens).to.equal(42);
    const sent = world.providers.anthropic.last();
    expect(sent.path).to.equal('/v1/messages/count_tokens');
    expect(sent.headers['x-api-key']).to.equal('sk-ant-upstream');
    expect(sent.body).to.deep.equal({ model: UPSTREAM_MODEL, messages: [{ role: 'user', content: [{ type: 'text', text: 'How many tokens?' }] }] });
  });

  it('Anthropic client → OpenAI-type upstream: an estimate, flagged in a header', async () => {
    const before = world.providers.openai.upstream.requests.length;
    const { data, response } = await anthropic.messages.countTokens({ model: modelFor('openai'), messages: question }).withResponse();
    expect(response.headers.get('x-gateway-token-count')).to.equal('estimate');
    const ir = codecFor('messages').decodeRequest({ model: 'x', max_tokens: 1, messages: question });
    expect(data.input_tokens).to.equal(estimateInputTokens(ir));
    expect(data.input_tokens).to.be.within(10, 30);
    expect(world.providers.openai.upstream.requests.length, 'no upstream call').to.equal(before);
  });

  it('Gemini client → OpenAI-type upstream: an estimate, flagged in a header', async () => {
    const res = await fetch(`${world.gateway.url}/v1beta/models/${modelFor('openai')}:countTokens`, {
      method: 'POST',
      headers: { 'x-goog-api-key': TEST_KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'How many tokens?' }] }] }),
    });
    expect(res.status).to.equal(200);
    expect(res.headers.get('x-gateway-token-count')).to.equal('estimate');
    const body = (await res.json()) as { totalTokens: number };
    expect(body.totalTokens).to.be.a('number').and.be.greaterThan(3);
  });
});
