import { expect } from 'chai';
import { expandString, interpolate, loadConfigFile, parseConfig } from '../../../src/config/index.ts';
import { BASE_DIR, configOf, fixture, lines, minimal } from './helpers.ts';

describe('config/interpolate', () => {
  describe('expandString', () => {
    const env = { HOME_DIR: '/home/ops', EMPTY: '', KEY: 'k-1' };

    it('substitutes set variables, several per string', () => {
      expect(expandString('${HOME_DIR}/data-${KEY}', env)).to.deep.equal({ value: '/home/ops/data-k-1', missing: [], malformed: false });
    });

    it('uses the default when the variable is unset or empty', () => {
      expect(expandString('${NOPE:-fallback}', env).value).to.equal('fallback');
      expect(expandString('${EMPTY:-fallback}', env).value).to.equal('fallback');
      expect(expandString('${KEY:-fallback}', env).value).to.equal('k-1');
      expect(expandString('${NOPE:-}', env)).to.deep.equal({ value: '', missing: [], malformed: false });
      expect(expandString('${NOPE:-a:b-c}', env).value).to.equal('a:b-c');
    });

    it('reports unset and empty variables without a default, once each', () => {
      expect(expandString('${NOPE}-${EMPTY}-${NOPE}', env)).to.deep.equal({ value: '--', missing: ['NOPE', 'EMPTY'], malformed: false });
    });

    it('treats $${ as a literal ${ and leaves other dollars alone', () => {
      expect(expandString('$${KEY} costs $5 ${KEY}$', env).value).to.equal('${KEY} costs $5 k-1$');
    });

    it('does not expand references inside substituted values', () => {
      expect(expandString('${INNER}', { INNER: '${KEY}', KEY: 'x' }).value).to.equal('${KEY}');
    });

    it('flags malformed references', () => {
      expect(expandString('${unclosed', env).malformed).to.equal(true);
      expect(expandString('${1BAD}', env).malformed).to.equal(true);
      expect(expandString('${}', env).malformed).to.equal(true);
    });
  });

  it('interpolates every string value deeply, but not object keys, and leaves the input untouched', () => {
    const raw = { a: ['${X}', { '${X}': '${X}-y', n: 3, b: true, z: null }] };
    const result = interpolate(raw, { X: 'v' });
    expect(result.value).to.deep.equal({ a: ['v', { '${X}': 'v-y', n: 3, b: true, z: null }] });
    expect(raw.a[0]).to.equal('${X}');
  });

  it('keeps providers with unset variables, records missingEnv, drops the incomplete values and warns', async () => {
    const result = await loadConfigFile({ file: fixture('interpolation.yaml'), env: {} });
    const config = configOf(result);
    expect(config.server.host).to.equal('127.0.0.1');
    expect(config.server.publicUrl).to.equal('https://gateway.example.com');
    expect(config.keys.map((key) => key.key)).to.deep.equal(['sk-local-dev', 'pre${NOT_A_VAR}post']);
    expect(config.providers.openai).to.deep.equal({
      id: 'openai',
      type: 'openai',
      baseUrl: 'https://api.openai.com/v1',
      missingEnv: ['OPENAI_API_KEY'],
    });
    expect(config.providers.router).to.deep.equal({
      id: 'router',
      type: 'openai',
      headers: { 'HTTP-Referer': 'https://example.com' },
      missingEnv: ['ROUTER_URL', 'ROUTER_KEY', 'ROUTER_TITLE'],
    });
    expect(config.providers.demo?.missingEnv).to.deep.equal([]);
    expect(result.warnings).to.deep.equal([
      'provider openai: OPENAI_API_KEY is not set; requests routed to it will answer 503',
      'provider router: ROUTER_URL, ROUTER_KEY and ROUTER_TITLE are not set; requests routed to it will answer 503',
    ]);
  });

  it('fills providers from the environment when the variables are set', async () => {
    const env = {
      OPENAI_API_KEY: 'sk-o',
      OPENAI_BASE_URL: 'http://localhost:11434/v1/',
      ROUTER_URL: 'https://openrouter.ai/api/v1',
      ROUTER_KEY: 'sk-or',
      ROUTER_TITLE: 'Gateway',
      GATEWAY_API_KEY: 'sk-from-env',
    };
    const result = await loadConfigFile({ file: fixture('interpolation.yaml'), env });
    const config = configOf(result);
    expect(result.warnings).to.deep.equal([]);
    expect(config.keys[0]?.key).to.equal('sk-from-env');
    expect(config.providers.openai).to.include({ baseUrl: 'http://localhost:11434/v1', apiKey: 'sk-o' });
    expect(config.providers.router).to.deep.include({
      baseUrl: 'https://openrouter.ai/api/v1',
      apiKey: 'sk-or',
      headers: { 'HTTP-Referer': 'https://example.com', 'X-Title': 'Gateway' },
      missingEnv: [],
    });
  });

  it('an unset variable outside providers is a problem naming the variable', () => {
    const raw = { ...minimal(), keys: [{ name: 'ops', key: '${GATEWAY_API_KEY}' }], plugins: [{ 'rate-limit': { redisUrl: '${REDIS_URL}' } }] };
    const result = parseConfig(raw, { baseDir: BASE_DIR, env: {} });
    expect(result.config).to.equal(undefined);
    expect(lines(result)).to.deep.equal([
      'keys[0].key: environment variable ${GATEWAY_API_KEY} is not set (give a default with ${GATEWAY_API_KEY:-value})',
      'plugins[0].rate-limit.redisUrl: environment variable ${REDIS_URL} is not set (give a default with ${REDIS_URL:-value})',
    ]);
  });

  it('a malformed reference is a problem that does not echo the value', () => {
    const raw = { ...minimal(), keys: [{ name: 'ops', key: 'sk-secret-${oops' }] };
    const result = parseConfig(raw, { baseDir: BASE_DIR, env: {} });
    expect(lines(result)).to.deep.equal([
      'keys[0].key: malformed ${…} reference: use ${NAME} or ${NAME:-default} (write $${ for a literal "${")',
    ]);
  });

  it('reads only the env it is given, never process.env', () => {
    process.env.CONFIG_TEST_ONLY_IN_PROCESS = 'from-process';
    try {
      const raw = { ...minimal(), keys: [{ name: 'ops', key: '${CONFIG_TEST_ONLY_IN_PROCESS:-from-default}' }] };
      expect(configOf(parseConfig(raw, { baseDir: BASE_DIR })).keys[0]?.key).to.equal('from-default');
    } finally {
      delete process.env.CONFIG_TEST_ONLY_IN_PROCESS;
    }
  });
});
