// The built-in auth, logging and rate-limit plugins through real HTTP: one access line per request
// whatever its outcome, no client key in any log line or upstream request, and the rate-limit plugin's
// in-flight slot released when a stream ends or an upstream fails.
import { expect } from 'chai';
import { sendJson, sendSse, startFakeUpstream, type FakeUpstream } from '../../helpers/fake-upstream.ts';
import { startTestGateway, testConfig, TEST_KEY, type TestGateway } from '../../helpers/gateway.ts';
import { REDACTED } from '../../../src/index.ts';

const WRONG_KEY = 'sk-wrong-integration-key-31337';
const chatBody = { model: 'gpt', messages: [{ role: 'user', content: 'hi' }] };
const completion = {
  id: 'chatcmpl-1',
  object: 'chat.completion',
  created: 1,
  model: 'gpt-x',
  choices: [{ index: 0, message: { role: 'assistant', content: 'hello' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
};
const streamFrames = [
  'data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"gpt-x","choices":[{"index":0,"delta":{"content":"he"}}]}\n\n',
  'data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"gpt-x","choices":[{"index":0,"delta":{"content":"llo"},"finish_reason":"stop"}]}\n\n',
  'data: [DONE]\n\n',
];

async function post(gw: TestGateway, path: string, headers: Record<string, string>, body: unknown = chatBody): Promise<Response> {
  return fetch(`${gw.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

/** The access lines logged for one request id, after giving the completion hooks a moment to run. */
async function accessLines(gw: TestGateway, requestId: string | null): Promise<Array<Record<string, unknown>>> {
  await new Promise((resolve) => setTimeout(resolve, 30));
  return gw.logs.filter((line) => line.message === 'access' && line.requestId === requestId);
}

describe('built-in plugins over HTTP: auth + logging', () => {
  let up: FakeUpstream;
  let gw: TestGateway;
  before(async () => {
    up = await startFakeUpstream((req, res) => {
      const body = req.body as { stream?: boolean } | undefined;
      if (body?.stream) return sendSse(res, streamFrames, 5);
      return sendJson(res, 200, completion);
    });
    gw = await startTestGateway(
      testConfig({
        providers: {
          oai: { type: 'openai', baseUrl: `${up.url}/v1`, apiKey: 'sk-upstream' },
          gem: { type: 'gemini', baseUrl: up.url, apiKey: 'gem-upstream' },
        },
        models: [
          { name: 'gpt', targets: [{ provider: 'oai', model: 'gpt-x' }] },
          { name: 'gem', targets: [{ provider: 'gem', model: 'gemini-x' }] },
        ],
        plugins: ['logging', 'auth'],
      }),
    );
  });
  after(async () => {
    await gw.close();
    await up.close();
  });

  it('logs one line for a completed request, naming the key but never sending or logging it', async () => {
    const response = await post(gw, '/v1/chat/completions', { authorization: `Bearer ${TEST_KEY}` });
    expect(response.status).to.equal(200);
    await response.text();
    const lines = await accessLines(gw, response.headers.get('x-request-id'));
    expect(lines).to.have.length(1);
    expect(lines[0]).to.include({ keyName: 'ops', protocol: 'chat', model: 'gpt', provider: 'oai', upstreamModel: 'gpt-x', status: 200, stream: false });
    expect(lines[0]?.latencyMs).to.be.a('number');
    const upstreamHeaders = JSON.stringify(up.requests.at(-1)?.headers);
    expect(upstreamHeaders).not.to.include(TEST_KEY);
    expect(up.requests.at(-1)?.headers.authorization).to.equal('Bearer sk-upstream');
  });

  it('logs a stream once, with its time to first byte', async () => {
    const response = await post(gw, '/v1/chat/completions', { authorization: `Bearer ${TEST_KEY}` }, { ...chatBody, stream: true });
    expect(response.status).to.equal(200);
    await response.text();
    const lines = await accessLines(gw, response.headers.get('x-request-id'));
    expect(lines).to.have.length(1);
    expect(lines[0]).to.include({ stream: true, status: 200 });
    expect(lines[0]?.ttfbMs).to.be.a('number');
  });

  it('logs one line for a rejected key, with the error code and without the key', async () => {
    const response = await post(gw, '/v1/chat/completions', { authorization: `Bearer ${WRONG_KEY}` });
    expect(response.status).to.equal(401);
    const body = await response.text();
    expect(body).not.to.include(WRONG_KEY);
    const lines = await accessLines(gw, response.headers.get('x-request-id'));
    expect(lines).to.have.length(1);
    expect(lines[0]).to.include({ status: 401 });
    expect(lines[0]?.error).to.include({ code: 'invalid_api_key' });
  });

  it('redacts the Gemini ?key= query parameter from the logged path', async () => {
    const response = await fetch(`${gw.url}/v1beta/models/gem:generateContent?key=${TEST_KEY}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] }),
    });
    await response.text();
    const lines = await accessLines(gw, response.headers.get('x-request-id'));
    expect(lines).to.have.length(1);
    expect(lines[0]).to.include({ keyName: 'ops', protocol: 'gemini' });
    expect(lines[0]?.path).to.equal(`/v1beta/models/gem:generateContent?key=${REDACTED}`);
    expect(JSON.stringify(up.requests.at(-1)?.path)).not.to.include(TEST_KEY);
  });

  it('never wrote a client key into any log line', () => {
    const leaks = gw.logs.map((line) => String(line.message)).filter((_m, i) => {
      const text = JSON.stringify(gw.logs[i]);
      return text.includes(TEST_KEY) || text.includes(WRONG_KEY);
    });
    expect(leaks, 'log lines containing a client key').to.deep.equal([]);
  });
});

describe('built-in plugins over HTTP: rate-limit concurrency', () => {
  let up: FakeUpstream;
  let gw: TestGateway;
  let releaseStream: () => void = () => undefined;
  before(async () => {
    up = await startFakeUpstream();
    gw = await startTestGateway(
      testConfig({
        providers: {
          oai: { type: 'openai', baseUrl: `${up.url}/v1`, apiKey: 'sk-upstream' },
          down: { type: 'openai', baseUrl: 'http://127.0.0.1:1/v1', apiKey: 'sk-upstream' },
        },
        models: [
          { name: 'gpt', targets: [{ provider: 'oai', model: 'gpt-x' }] },
          { name: 'down', targets: [{ provider: 'down', model: 'gpt-x' }] },
        ],
        plugins: ['logging', 'auth', { 'rate-limit': { requestsPerMinute: 100, concurrency: 1 } }],
      }),
    );
  });
  after(async () => {
    releaseStream();
    await gw.close();
    await up.close();
  });

  const send = (stream = false): Promise<Response> =>
    post(gw, '/v1/chat/completions', { authorization: `Bearer ${TEST_KEY}` }, { ...chatBody, stream });

  it('holds the slot while a stream runs and frees it when the stream ends', async () => {
    const held = new Promise<void>((resolve) => (releaseStream = resolve));
    up.setHandler(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(streamFrames[0]);
      await held;
      res.end(streamFrames[2]);
    });
    const streaming = await send(true);
    expect(streaming.status).to.equal(200);

    const limited = await send();
    expect(limited.status).to.equal(429);
    expect(limited.headers.get('retry-after')).to.equal('1');
    const body = (await limited.json()) as { error: { message: string } };
    expect(body.error.message).to.equal('concurrency limit of 1 requests in flight for key ops exceeded; retry after 1 s');

    releaseStream();
    await streaming.text();
    await new Promise((resolve) => setTimeout(resolve, 30));
    up.setHandler((_req, res) => sendJson(res, 200, completion));
    const after = await send();
    expect(after.status).to.equal(200);
    await after.text();
  });

  it('frees the slot when the upstream is unreachable', async () => {
    const failed = await post(gw, '/v1/chat/completions', { authorization: `Bearer ${TEST_KEY}` }, { ...chatBody, model: 'down' });
    expect(failed.status).to.equal(502);
    await failed.text();
    const lines = await accessLines(gw, failed.headers.get('x-request-id'));
    expect(lines).to.have.length(1);
    expect(lines[0]?.error).to.include({ code: 'upstream_unreachable' });
    const next = await send();
    expect(next.status).to.equal(200);
    await next.text();
  });
});
