import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { BUILTIN_PLUGINS, DEFAULT_PLUGINS, normalisePlugin, parseConfig } from '../../../src/config/index.ts';
import { BASE_DIR, FIXTURES, configOf, lines, minimal } from './helpers.ts';

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

function withPlugins(plugins: unknown, baseDir = BASE_DIR): ReturnType<typeof parseConfig> {
  return parseConfig({ ...minimal(), plugins }, { baseDir, env: {} });
}

describe('config/plugins', () => {
  it('normalises names and single-key mappings to { name, options }', () => {
    expect(normalisePlugin('logging')).to.deep.equal({ name: 'logging', options: {} });
    expect(normalisePlugin({ 'rate-limit': { requestsPerMinute: 600 } })).to.deep.equal({
      name: 'rate-limit',
      options: { requestsPerMinute: 600 },
    });
    expect(normalisePlugin({ auth: null })).to.deep.equal({ name: 'auth', options: {} });
  });

  it('uses the default chain when plugins is absent, and an empty chain (with a warning) when it is []', () => {
    expect(configOf(parseConfig(minimal(), { baseDir: BASE_DIR })).plugins.map((p) => p.name)).to.deep.equal(DEFAULT_PLUGINS);
    const empty = withPlugins([]);
    expect(configOf(empty).plugins).to.deep.equal([]);
    expect(empty.warnings).to.deep.equal(['plugins: "auth" is not in the chain, so requests are not checked against keys[]']);
  });

  it('keeps the YAML order and the options of each entry', () => {
    const config = configOf(withPlugins(['auth', { logging: { level: 'debug' } }, { 'rate-limit': null }, './plugins/examples/request-tag.ts'], FIXTURES));
    expect(config.plugins).to.deep.equal([
      { name: 'auth', options: {} },
      { name: 'logging', options: { level: 'debug' } },
      { name: 'rate-limit', options: {} },
      { name: './plugins/examples/request-tag.ts', options: {} },
    ]);
  });

  it('suggests the built-in a misspelt name was meant to be', () => {
    expect(lines(withPlugins(['auth', 'ratelimit', 'protocol-translation']))).to.deep.equal([
      'plugins[1]: unknown plugin "ratelimit" (did you mean "rate-limit"?)',
      'plugins[2]: unknown plugin "protocol-translation" (did you mean "protocol-translate"?)',
    ]);
  });

  it('explains an unknown name with no close built-in', () => {
    expect(lines(withPlugins(['auth', 'no-such-plugin-xyz']))).to.deep.equal([
      'plugins[1]: unknown plugin "no-such-plugin-xyz": not a built-in (logging, auth, rate-limit, protocol-translate, image-batches), not a relative path (start it with ./) and no installed package of that name',
    ]);
  });

  it('resolves relative and absolute paths against the config directory', () => {
    const absolute = path.join(FIXTURES, 'plugins/examples/request-tag.ts');
    expect(lines(withPlugins(['auth', './plugins/examples/request-tag.ts', absolute], FIXTURES))).to.deep.equal([]);
    expect(lines(withPlugins(['auth', './plugins/examples/request-tag.ts'], BASE_DIR))).to.deep.equal([
      `plugins[1]: plugin file not found: ${path.join(BASE_DIR, 'plugins/examples/request-tag.ts')}`,
    ]);
    expect(lines(withPlugins(['auth', './plugins'], FIXTURES))).to.deep.equal([
      `plugins[1]: plugin file not found: ${path.join(FIXTURES, 'plugins')}`,
    ]);
  });

  describe('packages', () => {
    let dir: string;
    before(async () => {
      dir = await mkdtemp(path.join(tmpdir(), 'gateway-plugins-'));
      const esmOnly = path.join(dir, 'node_modules', 'esm-only-plugin');
      await mkdir(esmOnly, { recursive: true });
      await writeFile(
        path.join(esmOnly, 'package.json'),
        JSON.stringify({ name: 'esm-only-plugin', type: 'module', exports: { '.': { import: './index.js' } } }),
      );
      await writeFile(path.join(esmOnly, 'index.js'), 'export default { name: "esm-only", setup() {} };\n');
    });
    after(async () => {
      await rm(dir, { recursive: true, force: true });
    });

    it('accept a package installed where the config lives, including ESM-only ones', () => {
      expect(lines(withPlugins(['auth', 'esm-only-plugin'], dir))).to.deep.equal([]);
      expect(lines(withPlugins(['auth', 'chai'], REPO_ROOT))).to.deep.equal([]);
    });

    it('reject a package that is not installed there, and Node built-in modules', () => {
      expect(lines(withPlugins(['auth', 'esm-only-plugin'], BASE_DIR))[0]).to.match(/^plugins\[1\]: unknown plugin "esm-only-plugin": /);
      expect(lines(withPlugins(['auth', 'fs', 'node:path'], REPO_ROOT))).to.have.length(2);
    });
  });

  it('rejects entries that are not a name or a single-key mapping, and duplicates', () => {
    expect(lines(withPlugins(['auth', { a: {}, b: {} }, 3, '', { logging: 'verbose' }, 'auth']))).to.deep.equal([
      'plugins[1]: must be a plugin name or a single-key mapping like { rate-limit: { requestsPerMinute: 600 } }',
      'plugins[2]: must be a string or a mapping',
      'plugins[3]: must be a plugin name or a single-key mapping like { rate-limit: { requestsPerMinute: 600 } }',
      'plugins[4].logging: must be a mapping or empty',
      'plugins[5]: "auth" is already in the chain at plugins[0]',
    ]);
  });

  it('each built-in name has its directory under plugins/', () => {
    for (const name of BUILTIN_PLUGINS) {
      expect(statSync(path.join(REPO_ROOT, 'plugins', name)).isDirectory(), name).to.equal(true);
    }
  });
});
