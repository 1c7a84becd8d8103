// The real process: CLI validate, start-up with unset provider keys, and graceful shutdown mid-stream.
import { expect } from 'chai';
import { sendSse, startFakeUpstream, type FakeUpstream } from '../../helpers/fake-upstream.ts';
import { collectExit, runCli, startChildGateway, writeTempConfig } from '../../helpers/child-gateway.ts';
import { REPO_ROOT, TEST_KEY } from '../../helpers/gateway.ts';

const chunk = (text: string): string =>
  `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { content: text }, finish_reason: null }] })}\n\n`;

describe('gateway process', function () {
  this.timeout(30000);
  let up: FakeUpstream;
  before(async () => {
    up = await startFakeUpstream();
  });
  after(() => up.close());

  it('`gateway validate` accepts the shipped config', async () => {
    const { exited, output } = collectExit(runCli(['validate', `${REPO_ROOT}gateway.config.yaml`]));
    expect(await exited, output()).to.equal(0);
    expect(output()).to.contain('OK');
  });

  it('`gateway validate` prints every problem with its YAML path and exits non-zero', async () => {
    const file = writeTempConfig(`
server: { prot: 8080 }
keys: [{ name: ops, key: sk-x }]
providers:
  openai: { type: openai, baseUrl: "http://127.0.0.1:9/v1" }
models:
  - name: a
    targets: [{ provider: opnai, model: x }]
  - { name: img, type: image, targets: [{ provider: openai, model: y }] }
`);
    const { exited, output } = collectExit(runCli(['validate', file]));
    expect(await exited).to.equal(1);
    expect(output()).to.contain('server.prot');
    expect(output()).to.contain('models[0].targets[0].provider');
    expect(output()).to.contain('did you mean "openai"');
    expect(output()).to.contain('models[1]');
  });

  it('starts without provider keys, reports them, and answers 503 for those providers', async () => {
    const file = writeTempConfig(`
server: { port: 0, host: 127.0.0.1 }
keys: [{ name: ops, key: ${TEST_KEY} }]
providers:
  openai: { type: openai, baseUrl: "${up.url}/v1", apiKey: "\${UNSET_TEST_OPENAI_KEY}" }
models:
  - { name: gpt, targets: [{ provider: openai, model: gpt-x }] }
plugins: [logging, auth]
`);
    const gw = await startChildGateway(file);
    try {
      expect(gw.output()).to.contain('UNSET_TEST_OPENAI_KEY');
      const r = await fetch(`${gw.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gpt', messages: [{ role: 'user', content: 'x' }] }),
      });
      expect(r.status).to.equal(503);
    } finally {
      gw.child.kill('SIGKILL');
      await gw.exited;
    }
  });

  it('SIGTERM lets an in-flight stream finish, then exits 0', async () => {
    up.setHandler((_req, res) => sendSse(res, [...Array.from({ length: 8 }, (_, i) => chunk(`p${i} `)), 'data: [DONE]\n\n'], 100));
    const file = writeTempConfig(`
server: { port: 0, host: 127.0.0.1, shutdownTimeoutMs: 5000 }
keys: [{ name: ops, key: ${TEST_KEY} }]
providers:
  openai: { type: openai, baseUrl: "${up.url}/v1", apiKey: sk-up }
models:
  - { name: gpt, targets: [{ provider: openai, model: gpt-x }] }
plugins: [logging, auth]
`);
    const gw = await startChildGateway(file);
    const response = await fetch(`${gw.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt', messages: [{ role: 'user', content: 'x' }], stream: true }),
    });
    const reader = response.body!.getReader();
    const first = await reader.read();
    expect(first.done).to.equal(false);
    gw.child.kill('SIGTERM');
    let text = new TextDecoder().decode(first.value);
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    expect(text).to.contain('p7');
    expect(text).to.contain('[DONE]');
    expect(await gw.exited).to.equal(0);
  });
});
