// The example plugin through the real HTTP surface: loaded by relative path from the YAML, it adds a
// header to the upstream request and a field to the access log line.
import { expect } from 'chai';
import { sendJson, startFakeUpstream, type FakeUpstream } from '../../helpers/fake-upstream.ts';
import { startTestGateway, testConfig, TEST_KEY, type TestGateway } from '../../helpers/gateway.ts';

describe('example plugin: request-tag', () => {
  let up: FakeUpstream;
  let gw: TestGateway;
  before(async () => {
    up = await startFakeUpstream((_req, res) => sendJson(res, 200, { id: 'x', object: 'chat.completion', choices: [] }));
    gw = await startTestGateway(
      testConfig({
        providers: { oai: { type: 'openai', baseUrl: `${up.url}/v1`, apiKey: 'sk-up' } },
        models: [{ name: 'gpt', targets: [{ provider: 'oai', model: 'gpt-x' }] }],
        plugins: ['logging', 'auth', { './plugins/examples/request-tag.ts': { header: 'x-team', value: 'search', logField: 'team' } }],
      }),
    );
  });
  after(async () => {
    await gw.close();
    await up.close();
  });

  it('adds its header upstream and its field to the access log', async () => {
    const response = await fetch(`${gw.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(response.status).to.equal(200);
    await response.text();
    expect(up.requests.at(-1)!.headers['x-team']).to.equal('search');
    await new Promise((r) => setTimeout(r, 20));
    const access = gw.logs.filter((l) => l.message === 'access').at(-1);
    expect(access).to.include({ team: 'search', status: 200 });
  });

  it('tags requests that never reach an upstream too (unknown model → 404)', async () => {
    await fetch(`${gw.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_KEY}` },
      body: JSON.stringify({ model: 'nope', messages: [{ role: 'user', content: 'hi' }] }),
    });
    await new Promise((r) => setTimeout(r, 20));
    expect(gw.logs.filter((l) => l.message === 'access').at(-1)).to.include({ team: 'search', status: 404 });
  });
});
