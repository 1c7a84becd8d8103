import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import requestTag from '../../../plugins/examples/request-tag.ts';
import logging from '../../../plugins/logging/index.ts';
import { createHarness, makeConfig, makeContext } from '../../helpers/plugin-harness.ts';
import type { RequestContext } from '../../../src/index.ts';

function upstreamContext(): RequestContext {
  return makeContext({
    upstream: { url: 'https://api.openai.com/v1/chat/completions', headers: { 'content-type': 'application/json' }, body: { model: 'gpt-4o-mini' } },
  });
}

describe('request-tag example plugin', () => {
  it('with defaults: tags the access log in onRequest and the upstream call in beforeUpstream', async () => {
    const harness = createHarness();
    await harness.use(requestTag);
    const ctx = upstreamContext();
    await harness.run('onRequest', ctx);
    expect(ctx.logFields).to.deep.equal({ tag: 'gateway' });
    await harness.run('beforeUpstream', ctx);
    expect(ctx.upstream?.headers).to.deep.equal({ 'content-type': 'application/json', 'x-gateway-tag': 'gateway' });
  });

  it('uses the configured header (lower-cased), value and log field', async () => {
    const harness = createHarness();
    await harness.use(requestTag, { header: 'X-Team', value: 'search ranking', logField: 'team' });
    const ctx = upstreamContext();
    await harness.run('onRequest', ctx);
    await harness.run('beforeUpstream', ctx);
    expect(ctx.logFields).to.deep.equal({ team: 'search ranking' });
    expect(ctx.upstream?.headers['x-team']).to.equal('search ranking');
  });

  it('does nothing upstream when there is no upstream call', async () => {
    const harness = createHarness();
    await harness.use(requestTag);
    const ctx = makeContext();
    await harness.run('beforeUpstream', ctx);
    expect(ctx.upstream).to.equal(undefined);
  });

  it('rejects options that could break the request: bad header names, CR/LF in values, unknown keys', async () => {
    const problems = async (options: unknown): Promise<string> =>
      createHarness().use(requestTag, options).then(() => '', (error: Error) => error.message);
    expect(await problems({ header: 'x tag' })).to.include('header: must match pattern');
    expect(await problems({ value: 'a\r\nx-injected: 1' })).to.include('value: must match pattern');
    expect(await problems({ logfield: 'tag' })).to.include('unknown option "logfield"');
  });

  it('its field appears in the logging plugin’s access line', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'gateway-tag-'));
    try {
      const harness = createHarness(makeConfig({ baseDir: dir }));
      await harness.use(logging, { destination: 'access.log' });
      await harness.use(requestTag, { value: 'nightly' });
      const ctx = upstreamContext();
      await harness.run('onRequest', ctx);
      await harness.run('beforeUpstream', ctx);
      await harness.run('onResponse', ctx);
      await harness.close();
      const line = JSON.parse(readFileSync(path.join(dir, 'access.log'), 'utf8')) as Record<string, unknown>;
      expect(line).to.include({ tag: 'nightly', requestId: ctx.id });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
