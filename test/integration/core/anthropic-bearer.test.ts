// The 1.x Anthropic SDK sends `Authorization: Bearer` by default. The spec answers that with 401; the
// documented opt-in `auth.anthropicBearer: accept` lets such clients through unchanged.
import Anthropic from '@anthropic-ai/sdk';
import { expect } from 'chai';
import { startTestGateway, testConfig, TEST_KEY, type TestGateway } from '../../helpers/gateway.ts';

const models = [{ name: 'demo', targets: [{ provider: 'mock', model: 'demo' }] }];
const ask = (url: string): Promise<Anthropic.Message> =>
  new Anthropic({ apiKey: TEST_KEY, baseURL: url, maxRetries: 0 }).messages.create({
    model: 'demo',
    max_tokens: 16,
    messages: [{ role: 'user', content: 'bearer please' }],
  });

describe('Anthropic protocol with a Bearer header', () => {
  let rejecting: TestGateway;
  let accepting: TestGateway;
  before(async () => {
    rejecting = await startTestGateway(testConfig({ providers: { mock: { type: 'mock' } }, models, plugins: ['logging', 'auth'] }));
    accepting = await startTestGateway(
      testConfig({ providers: { mock: { type: 'mock' } }, models, plugins: ['logging', { auth: { anthropicBearer: 'accept' } }] }),
    );
  });
  after(async () => {
    await rejecting.close();
    await accepting.close();
  });

  it('is refused with 401 by default, telling the caller to send x-api-key', async () => {
    const error = await ask(rejecting.url).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(Anthropic.AuthenticationError);
    expect((error as Error).message).to.contain('x-api-key');
  });

  it('is accepted with auth.anthropicBearer: accept (the SDK default just works)', async () => {
    const message = await ask(accepting.url);
    expect(message.content[0]).to.deep.include({ type: 'text', text: 'bearer please' });
  });

  it('a wrong Bearer key is still a 401 when accepted', async () => {
    const error = await new Anthropic({ apiKey: 'sk-wrong', baseURL: accepting.url, maxRetries: 0 })
      .messages.create({ model: 'demo', max_tokens: 4, messages: [{ role: 'user', content: 'x' }] })
      .catch((e: unknown) => e);
    expect(error).to.be.instanceOf(Anthropic.AuthenticationError);
  });
});
