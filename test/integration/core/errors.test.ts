// Every error status the core produces, asserted with its status, headers and protocol-shaped body.
import { expect } from 'chai';
import { sendJson, startFakeUpstream, type FakeUpstream } from '../../helpers/fake-upstream.ts';
import { startTestGateway, testConfig, TEST_KEY, type TestGateway } from '../../helpers/gateway.ts';

type Shape = 'openai' | 'anthropic' | 'gemini';

async function call(url: string, init: RequestInit & { json?: unknown } = {}): Promise<{ status: number; headers: Headers; body: Record<string, unknown> }> {
  const { json, ...rest } = init;
  const response = await fetch(url, {
    ...rest,
    ...(json === undefined ? {} : { body: typeof json === 'string' ? json : JSON.stringify(json) }),
    headers: { 'content-type': 'application/json', ...(rest.headers as Record<string, string>) },
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

function expectShape(body: Record<string, unknown>, shape: Shape, status: number): void {
  if (shape === 'openai') {
    const error = body.error as Record<string, unknown>;
    expect(error).to.include.keys('message', 'type', 'param', 'code');
    expect(error.message).to.be.a('string').and.not.be.empty;
  } else if (shape === 'anthropic') {
    expect(body.type).to.equal('error');
    expect((body.error as Record<string, unknown>).type).to.be.a('string');
    expect((body.error as Record<string, unknown>).message).to.be.a('string');
  } else {
    const error = body.error as Record<string, unknown>;
    expect(error.code).to.equal(status);
    expect(error.status).to.be.a('string');
    expect(error.message).to.be.a('string');
  }
}

const bearer = { authorization: `Bearer ${TEST_KEY}` };
const anthropicAuth = { 'x-api-key': TEST_KEY, 'anthropic-version': '2023-06-01' };
const chatBody = { model: 'gpt', messages: [{ role: 'user', content: 'hi' }] };

describe('errors in the client protocol shape', () => {
  let up: FakeUpstream;
  let gw: TestGateway;

  before(async () => {
    up = await startFakeUpstream();
    gw = await startTestGateway(
      testConfig({
        server: { port: 0, host: '127.0.0.1', publicUrl: 'http://127.0.0.1:0', bodyLimit: '2kb', upstreamTimeoutMs: 300 },
        providers: {
          oai: { type: 'openai', baseUrl: `${up.url}/v1`, apiKey: 'sk-up' },
          ant: { type: 'anthropic', baseUrl: up.url, apiKey: 'sk-ant' },
          goo: { type: 'gemini', baseUrl: up.url, apiKey: 'g' },
          down: { type: 'openai', baseUrl: 'http://127.0.0.1:1/v1', apiKey: 'x' },
          nokey: { type: 'openai', baseUrl: `${up.url}/v1`, apiKey: '${MISSING_PROVIDER_KEY}' },
        },
        models: [
          { name: 'gpt', targets: [{ provider: 'oai', model: 'gpt-x' }] },
          { name: 'claude', targets: [{ provider: 'ant', model: 'claude-x' }] },
          { name: 'gem', targets: [{ provider: 'goo', model: 'gem-x' }] },
          { name: 'gpt-down', targets: [{ provider: 'down', model: 'x' }] },
          { name: 'gpt-nokey', targets: [{ provider: 'nokey', model: 'x' }] },
        ],
        plugins: ['logging', 'auth', { 'rate-limit': { requestsPerMinute: 1000, concurrency: 10 } }],
      }),
    );
  });
  after(async () => {
    await gw.close();
    await up.close();
  });

  it('401 wrong or missing key, per protocol', async () => {
    const chat = await call(`${gw.url}/v1/chat/completions`, { method: 'POST', json: chatBody, headers: { authorization: 'Bearer sk-wrong' } });
    expect(chat.status).to.equal(401);
    expectShape(chat.body, 'openai', 401);
    expect(JSON.stringify(chat.body)).not.to.contain('sk-wrong');
    const messages = await call(`${gw.url}/v1/messages`, { method: 'POST', json: { model: 'claude', max_tokens: 5, messages: [] }, headers: { 'anthropic-version': '2023-06-01' } });
    expect(messages.status).to.equal(401);
    expectShape(messages.body, 'anthropic', 401);
    expect((messages.body.error as Record<string, unknown>).type).to.equal('authentication_error');
    const gemini = await call(`${gw.url}/v1beta/models/gem:generateContent`, { method: 'POST', json: { contents: [] }, headers: { 'x-goog-api-key': 'nope' } });
    expect(gemini.status).to.equal(401);
    expectShape(gemini.body, 'gemini', 401);
  });

  it('401 for Bearer on the Anthropic protocol, telling the caller to send x-api-key', async () => {
    const r = await call(`${gw.url}/v1/messages`, {
      method: 'POST',
      json: { model: 'claude', max_tokens: 5, messages: [{ role: 'user', content: 'x' }] },
      headers: { ...bearer, 'anthropic-version': '2023-06-01' },
    });
    expect(r.status).to.equal(401);
    expectShape(r.body, 'anthropic', 401);
    expect(String((r.body.error as Record<string, unknown>).message)).to.contain('x-api-key');
  });

  it('404 unknown model, per protocol', async () => {
    const chat = await call(`${gw.url}/v1/chat/completions`, { method: 'POST', json: { ...chatBody, model: 'nope' }, headers: bearer });
    expect(chat.status).to.equal(404);
    expectShape(chat.body, 'openai', 404);
    expect((chat.body.error as Record<string, unknown>).code).to.equal('model_not_found');
    const messages = await call(`${gw.url}/v1/messages`, { method: 'POST', json: { model: 'nope', max_tokens: 5, messages: [{ role: 'user', content: 'x' }] }, headers: anthropicAuth });
    expect(messages.status).to.equal(404);
    expect((messages.body.error as Record<string, unknown>).type).to.equal('not_found_error');
    const gemini = await call(`${gw.url}/v1beta/models/nope:generateContent`, { method: 'POST', json: { contents: [{ parts: [{ text: 'x' }] }] }, headers: { 'x-goog-api-key': TEST_KEY } });
    expect(gemini.status).to.equal(404);
    expect((gemini.body.error as Record<string, unknown>).status).to.equal('NOT_FOUND');
  });

  it('404 for a model outside the key allow-list looks like an unknown model', async () => {
    const r = await call(`${gw.url}/v1/chat/completions`, { method: 'POST', json: chatBody, headers: { authorization: 'Bearer sk-test-other-9876543210' } });
    expect(r.status).to.equal(404);
    expect((r.body.error as Record<string, unknown>).code).to.equal('model_not_found');
  });

  it('404 with a base-URL hint for a doubled or missing /v1', async () => {
    const doubled = await call(`${gw.url}/v1/v1/chat/completions`, { method: 'POST', json: chatBody, headers: bearer });
    expect(doubled.status).to.equal(404);
    expectShape(doubled.body, 'openai', 404);
    expect(String((doubled.body.error as Record<string, unknown>).message)).to.contain('doubled /v1');
    const missing = await call(`${gw.url}/chat/completions`, { method: 'POST', json: chatBody, headers: bearer });
    expect(missing.status).to.equal(404);
    expect(String((missing.body.error as Record<string, unknown>).message)).to.contain('missing /v1');
  });

  it('405 with Allow for the wrong method on a known path', async () => {
    const r = await call(`${gw.url}/v1/chat/completions`, { method: 'GET', headers: bearer });
    expect(r.status).to.equal(405);
    expect(r.headers.get('allow')).to.equal('POST');
    expectShape(r.body, 'openai', 405);
    const m = await call(`${gw.url}/v1/messages`, { method: 'GET', headers: anthropicAuth });
    expect(m.status).to.equal(405);
    expectShape(m.body, 'anthropic', 405);
  });

  it('400 for malformed JSON and for bodies failing the basic schema', async () => {
    const bad = await call(`${gw.url}/v1/chat/completions`, { method: 'POST', json: '{"model": ', headers: bearer });
    expect(bad.status).to.equal(400);
    expectShape(bad.body, 'openai', 400);
    const noModel = await call(`${gw.url}/v1/chat/completions`, { method: 'POST', json: { messages: [] }, headers: bearer });
    expect(noModel.status).to.equal(400);
    expect((noModel.body.error as Record<string, unknown>).param).to.equal('model');
    const notArray = await call(`${gw.url}/v1/chat/completions`, { method: 'POST', json: { model: 'gpt', messages: 'hi' }, headers: bearer });
    expect(notArray.status).to.equal(400);
    const noMax = await call(`${gw.url}/v1/messages`, { method: 'POST', json: { model: 'claude', messages: [{ role: 'user', content: 'x' }] }, headers: anthropicAuth });
    expect(noMax.status).to.equal(400);
    expectShape(noMax.body, 'anthropic', 400);
    expect(String((noMax.body.error as Record<string, unknown>).message)).to.contain('max_tokens');
  });

  it('400 when anthropic-version is missing', async () => {
    const r = await call(`${gw.url}/v1/messages`, { method: 'POST', json: { model: 'claude', max_tokens: 5, messages: [] }, headers: { 'x-api-key': TEST_KEY } });
    expect(r.status).to.equal(400);
    expect(String((r.body.error as Record<string, unknown>).message)).to.contain('anthropic-version');
  });

  it('413 for a body over server.bodyLimit, in the protocol shape', async () => {
    const big = { model: 'claude', max_tokens: 5, messages: [{ role: 'user', content: 'x'.repeat(4000) }] };
    const r = await call(`${gw.url}/v1/messages`, { method: 'POST', json: big, headers: anthropicAuth });
    expect(r.status).to.equal(413);
    expect((r.body.error as Record<string, unknown>).type).to.equal('request_too_large');
  });

  it('502 when the upstream is unreachable, 503 when its key is not configured, 504 on timeout', async () => {
    const down = await call(`${gw.url}/v1/chat/completions`, { method: 'POST', json: { ...chatBody, model: 'gpt-down' }, headers: bearer });
    expect(down.status).to.equal(502);
    expectShape(down.body, 'openai', 502);
    const nokey = await call(`${gw.url}/v1/chat/completions`, { method: 'POST', json: { ...chatBody, model: 'gpt-nokey' }, headers: bearer });
    expect(nokey.status).to.equal(503);
    expect(String((nokey.body.error as Record<string, unknown>).message)).to.contain('MISSING_PROVIDER_KEY');
    up.setHandler(async (_req, res) => {
      await new Promise((r) => setTimeout(r, 1500));
      if (!res.destroyed) sendJson(res, 200, {});
    });
    const slow = await call(`${gw.url}/v1beta/models/gem:generateContent`, { method: 'POST', json: { contents: [{ parts: [{ text: 'x' }] }] }, headers: { 'x-goog-api-key': TEST_KEY } });
    expect(slow.status).to.equal(504);
    expect((slow.body.error as Record<string, unknown>).status).to.equal('DEADLINE_EXCEEDED');
  });

  it('passes same-type upstream 4xx/5xx bodies through unchanged', async () => {
    const upstreamError = { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' }, request_id: 'req_up' };
    up.setHandler((_req, res) => sendJson(res, 529, upstreamError, { 'retry-after': '3' }));
    const r = await call(`${gw.url}/v1/messages`, { method: 'POST', json: { model: 'claude', max_tokens: 5, messages: [{ role: 'user', content: 'x' }] }, headers: anthropicAuth });
    expect(r.status).to.equal(529);
    expect(r.body).to.deep.equal(upstreamError);
    expect(r.headers.get('retry-after')).to.equal('3');
  });

  it('501 for a cross-protocol route when protocol-translate is not enabled', async () => {
    const r = await call(`${gw.url}/v1/chat/completions`, { method: 'POST', json: { ...chatBody, model: 'claude' }, headers: bearer });
    expect(r.status).to.equal(501);
    expectShape(r.body, 'openai', 501);
    expect(String((r.body.error as Record<string, unknown>).message)).to.contain('protocol-translate');
  });

  it('every response carries X-Request-Id', async () => {
    const r = await call(`${gw.url}/v1/chat/completions`, { method: 'POST', json: chatBody, headers: { authorization: 'Bearer sk-wrong' } });
    expect(r.headers.get('x-request-id')).to.match(/^req_/);
  });
});

describe('429 from the rate-limit plugin', () => {
  let up: FakeUpstream;
  let gw: TestGateway;
  before(async () => {
    up = await startFakeUpstream((_req, res) => sendJson(res, 200, { ok: true }));
    gw = await startTestGateway(
      testConfig({
        providers: { oai: { type: 'openai', baseUrl: `${up.url}/v1`, apiKey: 'sk-up' } },
        models: [{ name: 'gpt', targets: [{ provider: 'oai', model: 'gpt-x' }] }],
        plugins: ['logging', 'auth', { 'rate-limit': { requestsPerMinute: 2, concurrency: 5 } }],
      }),
    );
  });
  after(async () => {
    await gw.close();
    await up.close();
  });

  it('answers 429 with Retry-After in the client shape once the per-minute budget is spent', async () => {
    const send = (): Promise<{ status: number; headers: Headers; body: Record<string, unknown> }> =>
      call(`${gw.url}/v1/chat/completions`, { method: 'POST', json: chatBody, headers: bearer });
    expect((await send()).status).to.equal(200);
    expect((await send()).status).to.equal(200);
    const limited = await send();
    expect(limited.status).to.equal(429);
    expect(Number(limited.headers.get('retry-after'))).to.be.greaterThan(0);
    expectShape(limited.body, 'openai', 429);
  });
});
