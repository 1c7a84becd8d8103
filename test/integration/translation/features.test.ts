// What does not translate cleanly is never silent: dropped features are named in `x-gateway-dropped` and the
// access log; features that cannot be carried at all are a 400 in the client's shape naming them.
import { expect } from 'chai';
import { TEST_KEY } from '../../helpers/gateway.ts';
import { rawRequest } from './clients.ts';
import { grammarViolations, modelFor, startWorld, type World } from './harness.ts';

describe('dropped and rejected features', function () {
  let world: World;
  before(async () => {
    world = await startWorld();
  });
  after(() => world.close());

  const chat = (body: Record<string, unknown>): Promise<Response> =>
    fetch(`${world.gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('names dropped features in x-gateway-dropped and the access log', async () => {
    const res = await chat({ model: modelFor('anthropic'), seed: 7, presence_penalty: 0.5, messages: [{ role: 'user', content: 'hi' }] });
    expect(res.status).to.equal(200);
    const dropped = res.headers.get('x-gateway-dropped')?.split(', ') ?? [];
    expect(dropped).to.include.members(['seed', 'presence_penalty']);
    const requestId = res.headers.get('x-request-id');
    await new Promise((r) => setTimeout(r, 20));
    const access = world.gateway.logs.find((l) => l.message === 'access' && l.requestId === requestId);
    expect(access?.dropped).to.include.members(['seed', 'presence_penalty']);
  });

  it('sends no x-gateway-dropped header when nothing was dropped', async () => {
    const res = await chat({ model: modelFor('gemini'), messages: [{ role: 'user', content: 'hi' }] });
    expect(res.status).to.equal(200);
    expect(res.headers.get('x-gateway-dropped')).to.equal(null);
  });

  it('rejects n > 1 for an Anthropic-type upstream with a 400 naming it (Chat shape)', async () => {
    const before = world.providers.anthropic.upstream.requests.length;
    const res = await chat({ model: modelFor('anthropic'), n: 2, messages: [{ role: 'user', content: 'hi' }] });
    expect(res.status).to.equal(400);
    const body = (await res.json()) as { error: { type: string; message: string; param: string } };
    expect(body.error.type).to.equal('invalid_request_error');
    expect(body.error.message).to.match(/n > 1/);
    expect(world.providers.anthropic.upstream.requests.length).to.equal(before);
  });

  it('rejects a hosted Responses tool with a 400 in the Responses shape', async () => {
    const res = await fetch(`${world.gateway.url}/v1/responses`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: modelFor('anthropic'), input: 'hi', tools: [{ type: 'web_search' }] }),
    });
    expect(res.status).to.equal(400);
    const body = (await res.json()) as { error: { message: string } };
    expect(body.error.message).to.match(/web_search/);
  });

  it('rejects Anthropic server tools with a 400 in the Anthropic shape', async () => {
    const { url, init } = rawRequest(world.gateway.url, 'messages', modelFor('openai'), 'hi');
    const body = JSON.parse(String(init.body)) as Record<string, unknown>;
    body.tools = [{ type: 'web_search_20250305', name: 'web_search' }];
    const res = await fetch(url, { ...init, body: JSON.stringify(body) });
    expect(res.status).to.equal(400);
    const error = (await res.json()) as { type: string; error: { type: string; message: string } };
    expect(error.type).to.equal('error');
    expect(error.error.type).to.equal('invalid_request_error');
    expect(error.error.message).to.match(/server tools/);
  });

  it('uses the model maxTokens default for an Anthropic upstream when the client gave none', async () => {
    await chat({ model: modelFor('anthropic'), messages: [{ role: 'user', content: 'hi' }] });
    expect((world.providers.anthropic.last().body as { max_tokens: number }).max_tokens).to.equal(1000);
  });

  it('asks OpenAI-type upstreams for stream usage even when the client did not', async () => {
    const { url, init } = rawRequest(world.gateway.url, 'messages', modelFor('openai'), 'hi', true);
    const res = await fetch(url, init);
    const text = await res.text();
    expect((world.providers.openai.last().body as { stream_options?: unknown }).stream_options).to.deep.equal({ include_usage: true });
    expect(text).to.match(/"input_tokens":17/);
    expect(grammarViolations('messages', { contentType: res.headers.get('content-type') ?? '', text })).to.deep.equal([]);
  });

  it('serves a Gemini client without alt=sse the JSON-array stream', async () => {
    const res = await fetch(`${world.gateway.url}/v1beta/models/${modelFor('openai')}:streamGenerateContent`, {
      method: 'POST',
      headers: { 'x-goog-api-key': TEST_KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] }),
    });
    const contentType = res.headers.get('content-type') ?? '';
    expect(contentType).to.include('application/json');
    const raw = await res.text();
    expect(grammarViolations('gemini', { contentType, text: raw })).to.deep.equal([]);
    const chunks = JSON.parse(raw) as Array<{ candidates?: Array<{ content?: { parts?: Array<{ text?: string }> } }> }>;
    const text = chunks.map((c) => c.candidates?.[0]?.content?.parts?.map((p) => p.text ?? '').join('') ?? '').join('');
    expect(text).to.equal('Hello from the fake upstream. It is a fine day.');
  });
});
