// A client that goes away mid-stream must not leave the upstream call running (same-protocol fast path).
import { expect } from 'chai';
import { sendSse, startFakeUpstream, type FakeUpstream } from '../../helpers/fake-upstream.ts';
import { startTestGateway, testConfig, TEST_KEY, type TestGateway } from '../../helpers/gateway.ts';

const chunk = (i: number): string =>
  `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { content: `t${i} ` }, finish_reason: null }] })}\n\n`;

describe('client disconnect on the fast path', () => {
  let up: FakeUpstream;
  let gw: TestGateway;
  before(async () => {
    up = await startFakeUpstream((_req, res) => sendSse(res, Array.from({ length: 100 }, (_, i) => chunk(i)), 50));
    gw = await startTestGateway(
      testConfig({
        providers: { oai: { type: 'openai', baseUrl: `${up.url}/v1`, apiKey: 'sk-up' } },
        models: [{ name: 'gpt', targets: [{ provider: 'oai', model: 'gpt-x' }] }],
      }),
    );
  });
  after(async () => {
    await gw.close();
    await up.close();
  });

  it('aborts the upstream request when the client disconnects mid-stream', async () => {
    const controller = new AbortController();
    const response = await fetch(`${gw.url}/v1/chat/completions`, {
      method: 'POST',
      signal: controller.signal,
      headers: { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt', messages: [{ role: 'user', content: 'go' }], stream: true }),
    });
    const reader = response.body!.getReader();
    expect((await reader.read()).done).to.equal(false);
    controller.abort();
    const upstream = up.requests.at(-1)!;
    await Promise.race([upstream.closed, new Promise((_, reject) => setTimeout(() => reject(new Error('upstream still open')), 2000))]);
    expect(upstream.aborted()).to.equal(true);
    await new Promise((r) => setTimeout(r, 50));
    expect(gw.gateway.inFlight).to.equal(0);
    expect(gw.logs.filter((l) => l.message === 'access').at(-1)).to.include({ clientAborted: true, status: 200, stream: true });
  });
});
