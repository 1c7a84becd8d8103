import { expect } from 'chai';
import { REDACTED, loadConfigFile, parseConfig, redactConfig } from '../../../src/config/index.ts';
import { BASE_DIR, configOf, fixture, lines, minimal } from './helpers.ts';

describe('config/redact', () => {
  const raw = {
    storage: { kind: 'postgres', url: 'postgres://gateway:pg-s3cret@db:5432/gw?sslmode=require' },
    ...minimal(),
    keys: [
      { name: 'ops', key: 'sk-client-secret-1' },
      { name: 'ci', keyHash: 'sha256:' + 'cd'.repeat(32) },
    ],
    providers: {
      demo: { type: 'mock' },
      router: {
        type: 'openai',
        baseUrl: 'https://openrouter.ai/api/v1?key=q-secret',
        apiKey: 'sk-provider-secret-2',
        headers: { Authorization: 'Bearer extra-secret', 'X-Api-Key': 'xk-secret', 'X-Title': 'Gateway', 'HTTP-Referer': 'https://example.com' },
      },
    },
    plugins: ['auth', { 'rate-limit': { store: { redisUrl: 'redis://:redis-pw@cache:6379', password: 'pw-secret' }, requestsPerMinute: 60 } }],
  };

  it('replaces keys, apiKeys, credential headers, URL passwords and secret options with ***', () => {
    const config = configOf(parseConfig(raw, { baseDir: BASE_DIR }));
    const safe = redactConfig(config);
    expect(safe.keys).to.deep.equal([
      { name: 'ops', key: REDACTED, models: ['*'] },
      { name: 'ci', keyHash: 'sha256:' + 'cd'.repeat(32), models: ['*'] },
    ]);
    expect(safe.providers.router).to.deep.equal({
      id: 'router',
      type: 'openai',
      baseUrl: 'https://openrouter.ai/api/v1?key=***',
      apiKey: REDACTED,
      headers: { Authorization: REDACTED, 'X-Api-Key': REDACTED, 'X-Title': 'Gateway', 'HTTP-Referer': 'https://example.com' },
      missingEnv: [],
    });
    expect(safe.storage).to.deep.equal({ kind: 'postgres', url: 'postgres://gateway:***@db:5432/gw?sslmode=require' });
    expect(safe.plugins[1]).to.deep.equal({
      name: 'rate-limit',
      options: { store: { redisUrl: 'redis://:***@cache:6379', password: REDACTED }, requestsPerMinute: 60 },
    });
    const dump = JSON.stringify(safe);
    for (const secret of ['sk-client-secret-1', 'sk-provider-secret-2', 'extra-secret', 'xk-secret', 'pg-s3cret', 'redis-pw', 'pw-secret', 'q-secret']) {
      expect(dump).not.to.include(secret);
    }
  });

  it('leaves the original config untouched and returns a frozen copy', () => {
    const config = configOf(parseConfig(raw, { baseDir: BASE_DIR }));
    const safe = redactConfig(config);
    expect(config.keys[0]?.key).to.equal('sk-client-secret-1');
    expect(config.providers.router?.apiKey).to.equal('sk-provider-secret-2');
    expect(Object.isFrozen(safe.providers.router?.headers)).to.equal(true);
  });

  it('problems never echo a secret value', () => {
    const bad = {
      ...minimal(),
      keys: [
        { name: 'ops', key: 'sk-echo-check-1', keyHash: 'sha256:sk-echo-check-2' },
        { name: 'dup', key: 'sk-echo-check-1' },
        { name: 'num', key: 12345678 },
      ],
      providers: { demo: { type: 'mock' }, o: { type: 'openai', baseUrl: 'sk-echo-check-3', apiKey: 42, headers: { Authorization: 7 } } },
    };
    const problems = lines(parseConfig(bad, { baseDir: BASE_DIR }));
    expect(problems).to.have.length.greaterThan(4);
    const text = problems.join('\n');
    for (const secret of ['sk-echo-check', '12345678', '42']) expect(text).not.to.include(secret);
  });

  it('the shipped example dumps without any key', async () => {
    const env = { OPENAI_API_KEY: 'sk-o-1', ANTHROPIC_API_KEY: 'sk-a-1', GEMINI_API_KEY: 'g-1', GATEWAY_API_KEY: 'sk-g-1' };
    const { config } = await loadConfigFile({ file: fixture('full.yaml'), env });
    if (!config) throw new Error('expected a config');
    const dump = JSON.stringify(redactConfig(config));
    for (const secret of Object.values(env)) expect(dump).not.to.include(secret);
  });
});
