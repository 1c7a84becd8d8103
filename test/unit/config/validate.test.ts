import { createHash } from 'node:crypto';
import { expect } from 'chai';
import { loadConfigFile, parseConfig } from '../../../src/config/index.ts';
import { BASE_DIR, configOf, fixture, lines, minimal } from './helpers.ts';
import type { Doc } from './helpers.ts';

const HASH = 'sha256:' + 'ab'.repeat(32);

function check(raw: Doc, env: Record<string, string> = {}): string[] {
  return lines(parseConfig(raw, { baseDir: BASE_DIR, env }));
}

function warningsOf(raw: Doc): string[] {
  const result = parseConfig(raw, { baseDir: BASE_DIR, env: {} });
  configOf(result);
  return result.warnings;
}

const openai = { type: 'openai', baseUrl: 'https://api.openai.com/v1' };

describe('config/validate', () => {
  it('reports every problem at once, in document order, with paths and suggestions', async () => {
    const result = await loadConfigFile({ file: fixture('many-mistakes.yaml'), env: {} });
    expect(result.config).to.equal(undefined);
    expect(lines(result)).to.deep.equal([
      'server.prot: unknown key "prot" (did you mean "port"?)',
      'server.logLevel: must be one of "error", "warn", "info", "http", "verbose", "debug", "silly"',
      'keys[0].keyHash: must be "sha256:" followed by 64 hex digits (printf %s "$KEY" | sha256sum)',
      'keys[1].name: duplicate key name "ops" (also keys[0])',
      'providers.claude.responses: unknown key "responses" for provider type "anthropic" (allowed: type, apiKey, headers, timeoutMs, baseUrl)',
      'models[0].targets[0].provider: unknown provider "opnai" (did you mean "openai"?)',
      'models[1].name: duplicate model name "gpt-4o" (also models[0])',
      'models[2].sizes: required for image models (e.g. sizes: [1024x1024])',
      'models[2].targets[0].provider: provider "claude" (type anthropic) cannot generate images; image models need an openai, gemini or mock provider',
      'models[3].targets: must not be empty',
      'plugins[0]: unknown plugin "loging" (did you mean "logging"?)',
      `plugins[2]: plugin file not found: ${fixture('plugins/missing.ts')}`,
    ]);
    const text = JSON.stringify(result);
    expect(text).not.to.include('sk-never-echo-me');
    expect(text).not.to.include('sk-dup-secret');
  });

  it('accepts the minimal document', () => {
    expect(check(minimal())).to.deep.equal([]);
  });

  describe('unknown keys', () => {
    it('are errors with a did-you-mean, at every level', () => {
      const raw = {
        server: { prot: 1 },
        ...minimal(),
        keys: [{ name: 'ops', key: 'sk-test-key-1', modles: ['*'] }],
        models: [{ name: 'demo', targets: [{ provider: 'demo', model: 'echo', weight: 2 }] }],
        modles: [],
      };
      expect(check(raw)).to.deep.equal([
        'server.prot: unknown key "prot" (did you mean "port"?)',
        'keys[0].modles: unknown key "modles" (did you mean "models"?)',
        'models[0].targets[0].weight: unknown key "weight" (allowed: provider, model)',
        'modles: unknown key "modles" (did you mean "models"?)',
      ]);
    });

    it('list what a provider type or storage kind allows', () => {
      const raw = {
        storage: { kind: 'postgres', path: './data' },
        ...minimal(),
        providers: { demo: { type: 'mock', baseUrl: 'http://localhost:1' }, o: { ...openai, mock: { latencyMs: 1 } } },
      };
      expect(check(raw)).to.deep.equal([
        'storage.url: required',
        'storage.path: unknown key "path" for storage kind "postgres" (allowed: kind, url, schema)',
        'providers.demo.baseUrl: unknown key "baseUrl" for provider type "mock" (allowed: type, mock)',
        'providers.o.mock: unknown key "mock" for provider type "openai" (allowed: type, apiKey, headers, timeoutMs, baseUrl, responses)',
      ]);
    });
  });

  describe('storage', () => {
    it('is discriminated by kind', () => {
      expect(check({ ...minimal(), storage: { kind: 'mongodb', database: 'gw' } })).to.deep.equal(['storage.uri: required']);
      expect(check({ ...minimal(), storage: { kind: 'postgress', url: 'postgres://x' } })).to.deep.equal([
        'storage.kind: must be one of "sqlite", "postgres", "mongodb" (did you mean "postgres"?)',
      ]);
      expect(check({ ...minimal(), storage: { path: './db', url: 'x' } })).to.deep.equal([
        'storage.url: unknown key "url" for storage kind "sqlite" (allowed: kind, path)',
      ]);
    });
  });

  describe('types', () => {
    it('are never coerced: a quoted number or boolean is an error', () => {
      const raw = {
        server: { port: '8080', shutdownTimeoutMs: 1.5 },
        ...minimal(),
        providers: { demo: { type: 'mock' }, o: { ...openai, responses: 'yes' } },
      };
      expect(check(raw)).to.deep.equal([
        'server.port: must be an integer',
        'server.shutdownTimeoutMs: must be an integer',
        'providers.o.responses: must be true or false',
      ]);
    });

    it('explains ranges, sizes and list shapes', () => {
      const raw = {
        server: { port: 70000, bodyLimit: 'lots', publicUrl: 'gateway.local:8080' },
        ...minimal(),
        keys: [{ name: 'ops', key: 'sk-test-key-1', models: [], rateLimit: { requestsPerMinute: 0 } }],
      };
      expect(check(raw)).to.deep.equal([
        'server.port: must be at most 65535',
        'server.bodyLimit: must be a size like 20mb, 512kb or a number of bytes',
        'server.publicUrl: must be an absolute http(s) URL (the address clients reach the gateway at, e.g. https://gateway.example.com)',
        'keys[0].models: must not be empty',
        'keys[0].rateLimit.requestsPerMinute: must be at least 1',
      ]);
    });
  });

  describe('keys', () => {
    it('at least one key is required: the gateway never runs open', () => {
      const message =
        'keys: at least one key is required: the gateway never runs open (e.g. - { name: ops, key: "${GATEWAY_API_KEY}" })';
      const { keys: _keys, ...withoutKeys } = minimal();
      expect(check(withoutKeys)).to.deep.equal([message]);
      expect(check({ ...minimal(), keys: [] })).to.deep.equal([message]);
    });

    it('take exactly one of key or keyHash', () => {
      const raw = { ...minimal(), keys: [{ name: 'both', key: 'sk-a-1', keyHash: HASH }, { name: 'neither' }] };
      expect(check(raw)).to.deep.equal([
        'keys[0]: set either key or keyHash, not both',
        'keys[1].key: required (or give keyHash: "sha256:<64 hex digits>")',
      ]);
    });

    it('accept a sha256 keyHash (hex normalised to lower case)', () => {
      const config = configOf(parseConfig({ ...minimal(), keys: [{ name: 'ops', keyHash: HASH.toUpperCase().replace('SHA256', 'sha256') }] }, { baseDir: BASE_DIR }));
      expect(config.keys[0]).to.deep.equal({ name: 'ops', keyHash: HASH, models: ['*'] });
      expect(check({ ...minimal(), keys: [{ name: 'ops', keyHash: 'md5:abc' }] })).to.deep.equal([
        'keys[0].keyHash: must be "sha256:" followed by 64 hex digits (printf %s "$KEY" | sha256sum)',
      ]);
    });

    it('must be unique (hashes compared case-insensitively)', () => {
      const raw = {
        ...minimal(),
        keys: [
          { name: 'a', key: 'sk-same-key' },
          { name: 'b', key: 'sk-same-key' },
          { name: 'c', keyHash: HASH },
          { name: 'd', keyHash: HASH.toUpperCase().replace('SHA256', 'sha256') },
        ],
      };
      expect(check(raw)).to.deep.equal(['keys[1].key: same key as keys[0]', 'keys[3].keyHash: same key as keys[2]']);
    });

    it('must be unique between a key and another entry\'s keyHash of the same key', () => {
      const hash = `sha256:${createHash('sha256').update('sk-shared-1').digest('hex')}`;
      const raw = { ...minimal(), keys: [{ name: 'a', keyHash: hash }, { name: 'b', key: 'sk-shared-1' }] };
      expect(check(raw)).to.deep.equal(['keys[1].key: same key as keys[0]']);
    });
  });

  describe('providers', () => {
    it('require a baseUrl for remote types, with the SDK convention in the message', () => {
      const raw = {
        ...minimal(),
        providers: { demo: { type: 'mock' }, o: { type: 'openai' }, a: { type: 'anthropic' }, g: { type: 'gemini', baseUrl: 'nope' } },
      };
      expect(check(raw)).to.deep.equal([
        'providers.o.baseUrl: required (OpenAI-type baseUrl includes /v1, e.g. https://api.openai.com/v1)',
        'providers.a.baseUrl: required (Anthropic-type baseUrl is the root, e.g. https://api.anthropic.com)',
        'providers.g.baseUrl: must be an absolute http(s) URL (Gemini-type baseUrl is the root, e.g. https://generativelanguage.googleapis.com)',
      ]);
    });

    it('reject an unknown type with a suggestion, a missing type, and bad ids', () => {
      const raw = { ...minimal(), providers: { demo: { type: 'mock' }, o: { type: 'opnai' }, n: {}, 'my provider': { type: 'mock' } } };
      expect(check(raw)).to.deep.equal([
        'providers.o.type: must be one of "openai", "anthropic", "gemini", "mock" (did you mean "openai"?)',
        'providers.n.type: required',
        'providers["my provider"]: provider ids use only letters, digits, "_" and "-"',
      ]);
    });

    it('accept headers, timeouts, the responses flag and mock knobs; trailing slashes are trimmed', () => {
      const raw = {
        ...minimal(),
        providers: {
          demo: { type: 'mock', mock: { latencyMs: 5, chunkDelayMs: 1 } },
          o: { ...openai, baseUrl: 'https://api.openai.com/v1/', headers: { 'X-Title': 't' }, timeoutMs: 5000, responses: true },
        },
      };
      const config = configOf(parseConfig(raw, { baseDir: BASE_DIR }));
      expect(config.providers.demo).to.deep.equal({ id: 'demo', type: 'mock', mock: { latencyMs: 5, chunkDelayMs: 1 }, missingEnv: [] });
      expect(config.providers.o).to.deep.equal({
        id: 'o',
        type: 'openai',
        baseUrl: 'https://api.openai.com/v1',
        headers: { 'X-Title': 't' },
        timeoutMs: 5000,
        responses: true,
        missingEnv: [],
      });
    });

    it('warn about the doubled or missing /v1 base-URL mistakes', () => {
      const raw = {
        ...minimal(),
        providers: {
          demo: { type: 'mock' },
          ds: { type: 'openai', baseUrl: 'https://api.deepseek.com' },
          compat: { type: 'openai', baseUrl: 'https://generativelanguage.googleapis.com/v1beta/openai' },
          a: { type: 'anthropic', baseUrl: 'https://api.anthropic.com/v1/' },
          g: { type: 'gemini', baseUrl: 'https://generativelanguage.googleapis.com/v1beta' },
        },
      };
      expect(warningsOf(raw)).to.deep.equal([
        'providers.ds.baseUrl: OpenAI-type baseUrl usually includes a version segment such as /v1; requests will go to https://api.deepseek.com/chat/completions (OpenAI-type baseUrl includes /v1, e.g. https://api.openai.com/v1)',
        'providers.a.baseUrl: Anthropic-type baseUrl is the root, e.g. https://api.anthropic.com; the gateway appends /v1/messages, so this calls https://api.anthropic.com/v1/v1/messages',
        'providers.g.baseUrl: Gemini-type baseUrl is the root, e.g. https://generativelanguage.googleapis.com; the gateway appends /v1beta/models/…, so this calls https://generativelanguage.googleapis.com/v1beta/v1beta/models/…',
      ]);
    });
  });

  describe('models', () => {
    it('name existing providers, with a suggestion or the list of ids', () => {
      const raw = {
        ...minimal(),
        providers: { demo: { type: 'mock' }, openai },
        models: [{ name: 'a', targets: [{ provider: 'OpenAI', model: 'x' }, { provider: 'zzz', model: 'x' }] }],
      };
      expect(check(raw)).to.deep.equal([
        'models[0].targets[0].provider: unknown provider "OpenAI" (did you mean "openai"?)',
        'models[0].targets[1].provider: unknown provider "zzz" (providers: demo, openai)',
      ]);
    });

    it('have unique names', () => {
      const target = [{ provider: 'demo', model: 'echo' }];
      const raw = { ...minimal(), models: [{ name: 'a', targets: target }, { name: 'b', targets: target }, { name: 'a', targets: target }] };
      expect(check(raw)).to.deep.equal(['models[2].name: duplicate model name "a" (also models[0])']);
    });

    it('image models declare sizes; chat models do not', () => {
      const target = [{ provider: 'demo', model: 'x' }];
      const raw = {
        ...minimal(),
        models: [
          { name: 'img', type: 'image', targets: target },
          { name: 'img2', type: 'image', sizes: ['1024', '512x512'], targets: target },
          { name: 'chat', sizes: ['512x512'], targets: target },
          { name: 'img3', type: 'image', sizes: [], targets: target },
          { name: 'odd', type: 'video', targets: target },
        ],
      };
      expect(check(raw)).to.deep.equal([
        'models[0].sizes: required for image models (e.g. sizes: [1024x1024])',
        'models[1].sizes[0]: must be <width>x<height>, e.g. 1024x1024',
        'models[2].sizes: only image models take sizes (add type: image)',
        'models[3].sizes: must not be empty',
        'models[4].type: must be one of "chat", "image"',
      ]);
    });

    it('warn when an earlier glob hides a later model, and when a key glob matches no model', () => {
      const target = [{ provider: 'demo', model: 'x' }];
      const raw = {
        ...minimal(),
        keys: [{ name: 'ops', key: 'sk-test-key-1', models: ['demo-*', 'gpt-4o', 'gtp-*'] }],
        models: [
          { name: 'demo-*', targets: target },
          { name: 'demo-image', type: 'image', sizes: ['256x256'], targets: target },
          { name: 'gpt-*', targets: target },
        ],
      };
      expect(warningsOf(raw)).to.deep.equal([
        'models[1]: "demo-image" is never reached: models[0] ("demo-*") matches it first',
        'keys[0].models[2]: "gtp-*" matches no model',
      ]);
    });
  });
});
