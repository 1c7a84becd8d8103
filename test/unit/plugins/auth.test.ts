import { createHash } from 'node:crypto';
import { expect } from 'chai';
import auth from '../../../plugins/auth/index.ts';
import { KeyStore } from '../../../plugins/auth/keys.ts';
import { GatewayError } from '../../../src/index.ts';
import type { ErrorCode, RequestContext } from '../../../src/index.ts';
import { createHarness, key, makeConfig, makeContext } from '../../helpers/plugin-harness.ts';
import type { ContextInit, PluginHarness } from '../../helpers/plugin-harness.ts';

const OPS_KEY = 'sk-ops-0123456789abcdef';
const CI_KEY = 'sk-ci-fedcba9876543210';
const sha256hex = (value: string): string => createHash('sha256').update(value).digest('hex');

const keys = [
  key('ops', OPS_KEY),
  { name: 'ci', keyHash: `sha256:${sha256hex(CI_KEY)}`, models: ['gpt-*'] },
];

async function harnessWith(options?: unknown): Promise<PluginHarness> {
  const harness = createHarness(makeConfig({ keys }));
  await harness.use(auth, options);
  return harness;
}

async function authenticate(harness: PluginHarness, init: ContextInit): Promise<RequestContext> {
  const ctx = makeContext(init);
  await harness.run('onRequest', ctx);
  return ctx;
}

async function rejection(harness: PluginHarness, init: ContextInit): Promise<GatewayError> {
  try {
    await authenticate(harness, init);
  } catch (error) {
    expect(error).to.be.instanceOf(GatewayError);
    return error as GatewayError;
  }
  throw new Error('expected the request to be rejected');
}

function expectError(error: GatewayError, code: ErrorCode, status: number): void {
  expect(error.code).to.equal(code);
  expect(error.status).to.equal(status);
}

describe('auth plugin', () => {
  let harness: PluginHarness;
  beforeEach(async () => {
    harness = await harnessWith();
  });

  describe('OpenAI protocols (chat, responses, batch routes)', () => {
    for (const protocol of ['chat', 'responses'] as const) {
      it(`${protocol}: Authorization: Bearer identifies the key`, async () => {
        const ctx = await authenticate(harness, { protocol, headers: { Authorization: `Bearer ${OPS_KEY}` } });
        expect(ctx.key).to.deep.equal({ name: 'ops', models: ['*'] });
      });
    }

    it('accepts the Azure-style api-key header', async () => {
      const ctx = await authenticate(harness, { protocol: 'chat', headers: { 'api-key': OPS_KEY } });
      expect(ctx.key?.name).to.equal('ops');
    });

    it('treats a plugin route (batches) like any OpenAI-shaped request', async () => {
      const ctx = await authenticate(harness, {
        protocol: 'chat',
        operation: 'plugin_route',
        method: 'GET',
        path: '/v1/images/batches',
        headers: { authorization: `Bearer ${OPS_KEY}` },
      });
      expect(ctx.key?.name).to.equal('ops');
    });

    it('missing key → missing_api_key 401 naming the header to send', async () => {
      const error = await rejection(harness, { protocol: 'chat' });
      expectError(error, 'missing_api_key', 401);
      expect(error.message).to.include('Authorization: Bearer');
    });

    it('a non-Bearer Authorization scheme counts as no key', async () => {
      const basic = Buffer.from(`user:${OPS_KEY}`).toString('base64');
      const error = await rejection(harness, { protocol: 'responses', headers: { authorization: `Basic ${basic}` } });
      expectError(error, 'missing_api_key', 401);
    });

    it('wrong key → invalid_api_key 401 without echoing the key', async () => {
      const wrong = 'sk-wrong-key-never-echoed';
      const error = await rejection(harness, { protocol: 'chat', headers: { authorization: `Bearer ${wrong}` } });
      expectError(error, 'invalid_api_key', 401);
      expect(error.message).not.to.include(wrong);
      expect(JSON.stringify(error.toIR())).not.to.include(wrong);
    });

    it('does not take x-api-key or x-goog-api-key on OpenAI protocols', async () => {
      const error = await rejection(harness, { protocol: 'chat', headers: { 'x-api-key': OPS_KEY, 'x-goog-api-key': OPS_KEY } });
      expectError(error, 'missing_api_key', 401);
    });
  });

  describe('keyHash entries', () => {
    it('matches a key configured as sha256:<hex> and sets its models', async () => {
      const ctx = await authenticate(harness, { protocol: 'chat', headers: { authorization: `Bearer ${CI_KEY}` } });
      expect(ctx.key).to.deep.equal({ name: 'ci', models: ['gpt-*'] });
    });

    it('accepts upper-case hex digits', async () => {
      const upper = createHarness(
        makeConfig({ keys: [{ name: 'up', keyHash: `sha256:${sha256hex(CI_KEY).toUpperCase()}`, models: ['*'] }] }),
      );
      await upper.use(auth);
      const ctx = await authenticate(upper, { protocol: 'chat', headers: { authorization: `Bearer ${CI_KEY}` } });
      expect(ctx.key?.name).to.equal('up');
    });

    it('refuses to start with a malformed keyHash, naming the entry', async () => {
      const bad = createHarness(makeConfig({ keys: [key('ops', OPS_KEY), { name: 'broken', keyHash: 'md5:abc', models: ['*'] }] }));
      let message = '';
      await bad.use(auth).catch((error: Error) => (message = error.message));
      expect(message).to.match(/keys\[1\] \(broken\)/);
    });

    it('the KeyStore returns the first entry whose digest matches and undefined otherwise', () => {
      const store = new KeyStore([key('a', 'same'), key('b', 'same'), key('c', 'other')]);
      expect(store.find('same')?.name).to.equal('a');
      expect(store.find('other')?.name).to.equal('c');
      expect(store.find('nope')).to.equal(undefined);
      expect(store.find('')).to.equal(undefined);
    });
  });

  describe('Gemini', () => {
    it('accepts x-goog-api-key (what @google/genai sends)', async () => {
      const ctx = await authenticate(harness, { protocol: 'gemini', headers: { 'x-goog-api-key': OPS_KEY } });
      expect(ctx.key?.name).to.equal('ops');
    });

    it('accepts the key query parameter', async () => {
      const ctx = await authenticate(harness, { protocol: 'gemini', query: { key: OPS_KEY, alt: 'sse' } });
      expect(ctx.key?.name).to.equal('ops');
    });

    it('accepts Authorization: Bearer', async () => {
      const ctx = await authenticate(harness, { protocol: 'gemini', headers: { authorization: `Bearer ${CI_KEY}` } });
      expect(ctx.key?.name).to.equal('ci');
    });

    it('missing key → 401 naming x-goog-api-key', async () => {
      const error = await rejection(harness, { protocol: 'gemini', query: { alt: 'sse' } });
      expectError(error, 'missing_api_key', 401);
      expect(error.message).to.include('x-goog-api-key');
    });

    it('wrong ?key= → invalid_api_key without echoing it', async () => {
      const error = await rejection(harness, { protocol: 'gemini', query: { key: 'AIza-wrong-query-key' } });
      expectError(error, 'invalid_api_key', 401);
      expect(error.message).not.to.include('AIza-wrong-query-key');
    });
  });

  describe('Anthropic Messages', () => {
    const version = { 'anthropic-version': '2023-06-01' };

    it('accepts x-api-key with anthropic-version 2023-06-01', async () => {
      const ctx = await authenticate(harness, { protocol: 'messages', headers: { 'x-api-key': OPS_KEY, ...version } });
      expect(ctx.key?.name).to.equal('ops');
    });

    it('accepts other dated versions (forwarded upstream by the core)', async () => {
      const ctx = await authenticate(harness, {
        protocol: 'messages',
        headers: { 'x-api-key': OPS_KEY, 'anthropic-version': '2026-10-21' },
      });
      expect(ctx.key?.name).to.equal('ops');
    });

    it('missing anthropic-version → 400 naming the header and the documented value', async () => {
      const error = await rejection(harness, { protocol: 'messages', headers: { 'x-api-key': OPS_KEY } });
      expectError(error, 'missing_anthropic_version', 400);
      expect(error.message).to.include('anthropic-version').and.to.include('2023-06-01');
      expect(error.param).to.equal('anthropic-version');
    });

    it('an anthropic-version that is not a date → 400', async () => {
      const error = await rejection(harness, { protocol: 'messages', headers: { 'x-api-key': OPS_KEY, 'anthropic-version': 'latest' } });
      expectError(error, 'invalid_request', 400);
      expect(error.message).to.include('2023-06-01');
    });

    it('checks the key before the version: no key and no version → 401', async () => {
      const error = await rejection(harness, { protocol: 'messages' });
      expectError(error, 'missing_api_key', 401);
      expect(error.message).to.include('x-api-key');
    });

    it('wrong x-api-key → invalid_api_key 401', async () => {
      const error = await rejection(harness, { protocol: 'messages', headers: { 'x-api-key': 'sk-ant-wrong', ...version } });
      expectError(error, 'invalid_api_key', 401);
      expect(error.message).not.to.include('sk-ant-wrong');
    });

    it('default (anthropicBearer: reject): Bearer → bearer_on_anthropic 401 telling the caller to send x-api-key', async () => {
      const error = await rejection(harness, {
        protocol: 'messages',
        headers: { authorization: `Bearer ${OPS_KEY}`, 'anthropic-version': '2026-10-21' },
      });
      expectError(error, 'bearer_on_anthropic', 401);
      expect(error.message).to.include('x-api-key');
      expect(error.message).not.to.include(OPS_KEY);
    });

    it('reject also applies when x-api-key is sent alongside the Bearer header', async () => {
      const error = await rejection(harness, {
        protocol: 'messages',
        headers: { authorization: `Bearer ${OPS_KEY}`, 'x-api-key': OPS_KEY, ...version },
      });
      expectError(error, 'bearer_on_anthropic', 401);
    });

    describe('with anthropicBearer: accept', () => {
      beforeEach(async () => {
        harness = await harnessWith({ anthropicBearer: 'accept' });
      });

      it('treats the Bearer token like x-api-key (1.x @anthropic-ai/sdk defaults)', async () => {
        const ctx = await authenticate(harness, {
          protocol: 'messages',
          headers: { authorization: `Bearer ${OPS_KEY}`, 'anthropic-version': '2026-10-21' },
        });
        expect(ctx.key?.name).to.equal('ops');
      });

      it('still answers a wrong Bearer token with invalid_api_key', async () => {
        const error = await rejection(harness, { protocol: 'messages', headers: { authorization: 'Bearer sk-nope', ...version } });
        expectError(error, 'invalid_api_key', 401);
      });

      it('still requires anthropic-version', async () => {
        const error = await rejection(harness, { protocol: 'messages', headers: { authorization: `Bearer ${OPS_KEY}` } });
        expectError(error, 'missing_anthropic_version', 400);
      });

      it('prefers x-api-key when both are present', async () => {
        const ctx = await authenticate(harness, {
          protocol: 'messages',
          headers: { authorization: `Bearer ${OPS_KEY}`, 'x-api-key': CI_KEY, ...version },
        });
        expect(ctx.key?.name).to.equal('ci');
      });
    });
  });

  describe('options and hygiene', () => {
    it('defaults anthropicBearer to reject and rejects unknown values and options', async () => {
      const options: { anthropicBearer?: string } = {};
      const configured = createHarness(makeConfig({ keys }));
      await configured.use(auth, options);
      await rejection(configured, { protocol: 'messages', headers: { authorization: `Bearer ${OPS_KEY}`, 'anthropic-version': '2023-06-01' } });
      let message = '';
      await createHarness().use(auth, { anthropicBearer: 'sometimes', extra: 1 }).catch((error: Error) => (message = error.message));
      expect(message).to.include('anthropicBearer: must be one of "reject", "accept"');
      expect(message).to.include('unknown option "extra"');
    });

    it('keeps no copy of the presented key on the context', async () => {
      const ctx = await authenticate(harness, { protocol: 'chat', headers: { authorization: `Bearer ${OPS_KEY}` } });
      const { headers: _headers, ...rest } = ctx;
      const dump = JSON.stringify({ ...rest, pluginState: [...ctx.pluginState] });
      expect(dump).not.to.include(OPS_KEY);
      expect(ctx.logFields).to.deep.equal({});
    });

    it('warns at start-up when no keys are configured', async () => {
      const empty = createHarness(makeConfig({ keys: [] }));
      await empty.use(auth);
      expect(empty.logs.map((line) => line.message)).to.include('no keys configured: every request will answer 401');
    });
  });
});
