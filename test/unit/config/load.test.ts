import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { ConfigError, DEFAULT_PLUGINS, loadConfig, loadConfigFile } from '../../../src/config/index.ts';
import { FIXTURES, configOf, fixture, lines } from './helpers.ts';

const MINIMAL_YAML = `keys: [{ name: ops, key: sk-test-key-1 }]
providers: { demo: { type: mock } }
models: [{ name: demo, targets: [{ provider: demo, model: echo }] }]
`;

describe('config/load', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'gateway-config-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('loads the full example from the issue into a defaulted config', async () => {
    const result = await loadConfigFile({ file: fixture('full.yaml'), env: { OPENAI_API_KEY: 'sk-openai-test' } });
    const config = configOf(result);
    expect(result.filePath).to.equal(fixture('full.yaml'));
    expect(config.server).to.deep.equal({
      port: 8080,
      host: '0.0.0.0',
      publicUrl: 'http://127.0.0.1:8080',
      bodyLimit: '20mb',
      shutdownTimeoutMs: 10_000,
      upstreamTimeoutMs: 120_000,
      logLevel: 'info',
    });
    expect(config.storage).to.deep.equal({ kind: 'sqlite', path: path.join(FIXTURES, 'data') });
    expect(config.keys).to.deep.equal([{ name: 'ops', key: 'sk-local-dev', models: ['*'] }]);
    expect(config.providers).to.deep.equal({
      openai: { id: 'openai', type: 'openai', baseUrl: 'https://api.openai.com/v1', apiKey: 'sk-openai-test', missingEnv: [] },
      anthropic: { id: 'anthropic', type: 'anthropic', baseUrl: 'https://api.anthropic.com', missingEnv: ['ANTHROPIC_API_KEY'] },
      google: {
        id: 'google',
        type: 'gemini',
        baseUrl: 'https://generativelanguage.googleapis.com',
        missingEnv: ['GEMINI_API_KEY'],
      },
    });
    expect(config.models).to.deep.equal([
      { name: 'gpt-4o-mini', type: 'chat', targets: [{ provider: 'openai', model: 'gpt-4o-mini' }] },
      {
        name: 'claude-sonnet',
        type: 'chat',
        targets: [
          { provider: 'anthropic', model: 'claude-sonnet-4-5' },
          { provider: 'openai', model: 'gpt-4o' },
        ],
      },
      {
        name: 'gpt-image-1',
        type: 'image',
        sizes: ['1024x1024', '1536x1024'],
        targets: [{ provider: 'openai', model: 'gpt-image-1' }],
      },
    ]);
    expect(config.plugins).to.deep.equal([
      { name: 'logging', options: {} },
      { name: 'auth', options: {} },
      { name: 'rate-limit', options: { requestsPerMinute: 600, concurrency: 32 } },
      { name: './plugins/examples/request-tag.ts', options: {} },
    ]);
    expect(config.baseDir).to.equal(FIXTURES.replace(/\/$/, ''));
    expect(config.filePath).to.equal(fixture('full.yaml'));
    expect(result.warnings).to.deep.equal([
      'provider anthropic: ANTHROPIC_API_KEY is not set; requests routed to it will answer 503',
      'provider google: GEMINI_API_KEY is not set; requests routed to it will answer 503',
    ]);
  });

  it('searches the working directory for gateway.config.yaml, then .yml, then .json', async () => {
    await writeFile(path.join(dir, 'gateway.config.json'), JSON.stringify({ keys: [] }));
    await writeFile(path.join(dir, 'gateway.config.yml'), MINIMAL_YAML);
    const result = await loadConfigFile({ cwd: dir, env: {} });
    expect(result.filePath).to.equal(path.join(dir, 'gateway.config.yml'));
    const config = configOf(result);
    expect(config.baseDir).to.equal(dir);
    expect(config.plugins.map((entry) => entry.name)).to.deep.equal(DEFAULT_PLUGINS);
  });

  it('reads the file named by GATEWAY_CONFIG when no file is given, relative to cwd', async () => {
    await writeFile(path.join(dir, 'other.yaml'), MINIMAL_YAML);
    const result = await loadConfigFile({ cwd: dir, env: { GATEWAY_CONFIG: 'other.yaml' } });
    expect(result.filePath).to.equal(path.join(dir, 'other.yaml'));
    expect(configOf(result).filePath).to.equal(path.join(dir, 'other.yaml'));
  });

  it('loads JSON files with the same rules', async () => {
    const config = configOf(await loadConfigFile({ file: fixture('minimal.json'), env: {} }));
    expect(config.keys[0]?.key).to.equal('sk-json-key-1');
  });

  it('names the path of a missing file', async () => {
    const result = await loadConfigFile({ file: 'nope.yaml', cwd: dir, env: {} });
    expect(result.config).to.equal(undefined);
    expect(lines(result)).to.deep.equal([`config file not found: ${path.join(dir, 'nope.yaml')}`]);
  });

  it('says where it looked when the search finds nothing', async () => {
    const result = await loadConfigFile({ cwd: dir, env: {} });
    expect(result.filePath).to.equal(undefined);
    expect(lines(result)).to.deep.equal([
      `no config file found in ${dir} (looked for gateway.config.yaml, gateway.config.yml, gateway.config.json; name one with GATEWAY_CONFIG)`,
    ]);
  });

  it('reports YAML syntax errors with file, line, column and the failing line', async () => {
    const result = await loadConfigFile({ file: fixture('syntax-error.yaml'), env: {} });
    expect(lines(result)).to.deep.equal([
      `${fixture('syntax-error.yaml')}:5:4: YAML syntax error: bad indentation of a mapping entry\n` +
        '  4 |   demo: { type: mock }\n' +
        '  5 |    models: []\n' +
        '    |    ^',
    ]);
  });

  it('never prints a secret from the lines around a syntax error', async () => {
    const file = path.join(dir, 'bad.yaml');
    await writeFile(file, 'keys:\n  - { name: ops, key: sk-live-123456789, models: ["*"]\n');
    const result = await loadConfigFile({ file, env: {} });
    const [message = ''] = lines(result);
    expect(message).to.match(/^.*bad\.yaml:3:1: YAML syntax error: /);
    expect(message).to.include('  2 |   - { name: ops, key: ***, models: ["*"]');
    expect(message).not.to.include('sk-live');
  });

  it('rejects duplicated keys in a mapping as a syntax error', async () => {
    const result = await loadConfigFile({ file: fixture('duplicate-key.yaml'), env: {} });
    expect(lines(result)[0]).to.match(/duplicate-key\.yaml:5:1: YAML syntax error: duplicated mapping key\n/);
  });

  it('reports JSON syntax errors by line and column too', async () => {
    const result = await loadConfigFile({ file: fixture('broken.json'), env: {} });
    expect(lines(result)[0]).to.match(/broken\.json:4:3: JSON syntax error: missed comma between flow collection entries\n/);
  });

  it('reports an empty file and an unsupported extension', async () => {
    const empty = await loadConfigFile({ file: fixture('empty.yaml'), env: {} });
    expect(lines(empty)).to.deep.equal([`config file is empty: ${fixture('empty.yaml')}`]);
    const js = await loadConfigFile({ file: 'gateway.config.js', cwd: dir, env: {} });
    expect(lines(js)).to.deep.equal([
      `unsupported config file type: ${path.join(dir, 'gateway.config.js')} (use .yaml, .yml or .json)`,
    ]);
  });

  it('merges files named by $import (cosmiconfig), reporting problems in them by their own path', async () => {
    await writeFile(path.join(dir, 'base.yaml'), 'keys: [{ name: ops, key: sk-base-1 }]\nproviders: { demo: { type: mock } }\n');
    await writeFile(path.join(dir, 'main.yaml'), '$import: ./base.yaml\nmodels: [{ name: demo, targets: [{ provider: demo, model: echo }] }]\n');
    const config = configOf(await loadConfigFile({ file: 'main.yaml', cwd: dir, env: {} }));
    expect(config.keys.map((key) => key.name)).to.deep.equal(['ops']);
    await writeFile(path.join(dir, 'main.yaml'), '$import: ./gone.yaml\n');
    expect(lines(await loadConfigFile({ file: 'main.yaml', cwd: dir, env: {} }))).to.deep.equal([
      `config file not found: ${path.join(dir, 'gone.yaml')}`,
    ]);
    await writeFile(path.join(dir, 'base.yaml'), 'keys: [\n');
    await writeFile(path.join(dir, 'main.yaml'), '$import: ./base.yaml\n');
    expect(lines(await loadConfigFile({ file: 'main.yaml', cwd: dir, env: {} }))[0]).to.match(/base\.yaml:2:1: YAML syntax error: /);
  });

  it('loadConfig throws a ConfigError listing every problem', async () => {
    const error = await loadConfig({ file: fixture('many-mistakes.yaml'), env: {} }).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).to.be.instanceOf(ConfigError);
    if (!(error instanceof ConfigError)) return;
    expect(error.problems).to.have.length(12);
    expect(error.message).to.match(/^invalid gateway configuration in .*many-mistakes\.yaml \(12 problems\):\n {2}server\.prot: /);
    expect(error.message).not.to.include('sk-never-echo-me');
  });

  it('loadConfig returns the frozen config and warnings when the file is valid', async () => {
    const { config, warnings, filePath } = await loadConfig({ file: fixture('full.yaml'), env: {} });
    expect(filePath).to.equal(fixture('full.yaml'));
    expect(Object.isFrozen(config)).to.equal(true);
    expect(warnings).to.have.length(3);
  });
});
