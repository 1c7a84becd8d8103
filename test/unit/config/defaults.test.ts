import path from 'node:path';
import { expect } from 'chai';
import { DEFAULT_PLUGINS, parseConfig } from '../../../src/config/index.ts';
import type { GatewayConfig } from '../../../src/config/index.ts';
import { BASE_DIR, configOf, lines, minimal } from './helpers.ts';
import type { Doc } from './helpers.ts';

function parse(raw: Doc, env: Record<string, string> = {}): GatewayConfig {
  return configOf(parseConfig(raw, { baseDir: BASE_DIR, env }));
}

describe('config/defaults and freeze', () => {
  it('applies every default to the minimal document', () => {
    const config = parse(minimal());
    expect(config).to.deep.equal({
      server: {
        port: 8080,
        host: '0.0.0.0',
        publicUrl: 'http://127.0.0.1:8080',
        bodyLimit: '20mb',
        shutdownTimeoutMs: 10_000,
        upstreamTimeoutMs: 120_000,
        logLevel: 'info',
      },
      storage: { kind: 'sqlite', path: path.join(BASE_DIR, 'data') },
      keys: [{ name: 'ops', key: 'sk-test-key-1', models: ['*'] }],
      providers: { demo: { id: 'demo', type: 'mock', missingEnv: [] } },
      models: [{ name: 'demo', type: 'chat', targets: [{ provider: 'demo', model: 'echo' }] }],
      plugins: DEFAULT_PLUGINS.map((name) => ({ name, options: {} })),
      baseDir: BASE_DIR,
    });
    expect(DEFAULT_PLUGINS).to.deep.equal(['logging', 'auth', 'rate-limit', 'protocol-translate', 'image-batches']);
  });

  it('PORT overrides server.port and the default publicUrl follows it', () => {
    const config = parse({ server: { port: 9000 }, ...minimal() }, { PORT: '3000' });
    expect(config.server.port).to.equal(3000);
    expect(config.server.publicUrl).to.equal('http://127.0.0.1:3000');
    expect(parse(minimal(), { PORT: '' }).server.port).to.equal(8080);
  });

  it('an explicit publicUrl is kept as written (without a trailing slash) whatever the port', () => {
    const config = parse({ server: { publicUrl: 'https://gw.example.com/' }, ...minimal() }, { PORT: '3000' });
    expect(config.server.publicUrl).to.equal('https://gw.example.com');
  });

  it('an invalid PORT is a problem', () => {
    for (const port of ['abc', '70000', '-1', '80.5']) {
      expect(lines(parseConfig(minimal(), { baseDir: BASE_DIR, env: { PORT: port } }))).to.deep.equal([
        `server.port: the PORT environment variable must be an integer from 0 to 65535 (got ${JSON.stringify(port)})`,
      ]);
    }
  });

  it('the default publicUrl uses a specific bind host', () => {
    expect(parse({ server: { host: 'localhost', port: 81 }, ...minimal() }).server.publicUrl).to.equal('http://localhost:81');
    expect(parse({ server: { host: '::1' }, ...minimal() }).server.publicUrl).to.equal('http://[::1]:8080');
    expect(parse({ server: { host: '::' }, ...minimal() }).server.publicUrl).to.equal('http://127.0.0.1:8080');
  });

  it('normalises bodyLimit: bytes as a number, units case-insensitive', () => {
    expect(parse({ server: { bodyLimit: 1048576 }, ...minimal() }).server.bodyLimit).to.equal('1048576b');
    expect(parse({ server: { bodyLimit: '512 KB' }, ...minimal() }).server.bodyLimit).to.equal('512kb');
  });

  it('resolves the sqlite path against the config directory and keeps other storage settings', () => {
    expect(parse({ storage: { path: '../shared/db' }, ...minimal() }).storage).to.deep.equal({
      kind: 'sqlite',
      path: path.resolve(BASE_DIR, '../shared/db'),
    });
    expect(parse({ storage: { kind: 'sqlite', path: ':memory:' }, ...minimal() }).storage).to.deep.equal({ kind: 'sqlite', path: ':memory:' });
    expect(parse({ storage: { kind: 'postgres', url: 'postgres://gw@db/gw', schema: 'gateway' }, ...minimal() }).storage).to.deep.equal({
      kind: 'postgres',
      url: 'postgres://gw@db/gw',
      schema: 'gateway',
    });
    expect(parse({ storage: { kind: 'mongodb', uri: 'mongodb://db', database: 'gw' }, ...minimal() }).storage).to.deep.equal({
      kind: 'mongodb',
      uri: 'mongodb://db',
      database: 'gw',
    });
  });

  it('records filePath and resolves a relative baseDir', () => {
    const config = configOf(parseConfig(minimal(), { baseDir: 'conf', filePath: 'conf/gateway.config.yaml' }));
    expect(config.baseDir).to.equal(path.resolve('conf'));
    expect(config.filePath).to.equal(path.resolve('conf/gateway.config.yaml'));
  });

  it('keeps model and key settings, with the key allow-list defaulting to everything', () => {
    const raw = {
      ...minimal(),
      keys: [{ name: 'ci', key: 'sk-ci-1', models: ['demo'], rateLimit: { requestsPerMinute: 60, concurrency: 2 } }],
      models: [{ name: 'demo', maxTokens: 1024, targets: [{ provider: 'demo', model: 'echo' }] }],
    };
    const config = parse(raw);
    expect(config.keys).to.deep.equal([{ name: 'ci', key: 'sk-ci-1', models: ['demo'], rateLimit: { requestsPerMinute: 60, concurrency: 2 } }]);
    expect(config.models[0]).to.deep.equal({ name: 'demo', type: 'chat', maxTokens: 1024, targets: [{ provider: 'demo', model: 'echo' }] });
  });

  it('returns a deep-frozen config: mutation throws in strict mode', () => {
    const config = parse({ ...minimal(), plugins: [{ 'rate-limit': { requestsPerMinute: 5, tiers: [{ name: 'a' }] } }] });
    expect(() => {
      config.server.port = 1;
    }).to.throw(TypeError);
    expect(() => {
      (config.keys as KeysArray).push({ name: 'x', models: [] });
    }).to.throw(TypeError);
    expect(() => {
      (config.providers as Record<string, unknown>).extra = {};
    }).to.throw(TypeError);
    const options = config.plugins[0]?.options as { tiers: Array<{ name: string }> };
    expect(() => {
      const [tier] = options.tiers;
      if (tier) tier.name = 'b';
    }).to.throw(TypeError);
    for (const value of [config, config.server, config.storage, config.keys[0]?.models, config.providers.demo?.missingEnv, config.models[0]?.targets]) {
      expect(Object.isFrozen(value)).to.equal(true);
    }
  });

  it('does not modify or freeze the raw document', () => {
    const raw = minimal();
    parse(raw);
    expect(Object.isFrozen(raw)).to.equal(false);
    expect(raw).to.deep.equal(minimal());
  });
});

type KeysArray = Array<GatewayConfig['keys'][number]>;
