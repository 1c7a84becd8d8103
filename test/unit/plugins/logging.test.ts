import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import auth from '../../../plugins/auth/index.ts';
import logging from '../../../plugins/logging/index.ts';
import { GatewayError, REDACTED } from '../../../src/index.ts';
import type { GatewayConfig, RequestContext } from '../../../src/index.ts';
import { createHarness, key, makeConfig, makeContext, makeRoute } from '../../helpers/plugin-harness.ts';
import type { ContextInit, PluginHarness } from '../../helpers/plugin-harness.ts';

const SECRET = 'sk-live-logging-secret-4242';

describe('logging plugin', () => {
  let dir: string;
  let file: string;

  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'gateway-logging-'));
    file = path.join(dir, 'access.log');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  async function logger(options: Record<string, unknown> = {}, config: Partial<GatewayConfig> = {}): Promise<PluginHarness> {
    const harness = createHarness(makeConfig({ keys: [key('ops', SECRET)], baseDir: dir, ...config }));
    await harness.use(logging, { destination: file, ...options });
    return harness;
  }

  /** Closes the harness (flushing the file) and returns the parsed lines. */
  async function lines(harness: PluginHarness, at = file): Promise<Array<Record<string, unknown>>> {
    await harness.close();
    const text = readFileSync(at, 'utf8');
    expect(text).not.to.include(SECRET);
    return text.split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);
  }

  function completed(init: ContextInit = {}): RequestContext {
    return makeContext({
      id: 'req_abc',
      protocol: 'chat',
      headers: { authorization: `Bearer ${SECRET}` },
      key: { name: 'ops', models: ['*'] },
      model: 'claude-sonnet',
      stream: true,
      route: makeRoute('claude-sonnet', 'anthropic', 'claude-sonnet-4-5'),
      timings: { start: 1000, upstreamStart: 1002, firstByte: 1012.5, end: 1250.25 },
      response: { status: 200, headers: {}, streamed: true, usage: { inputTokens: 12, outputTokens: 34, totalTokens: 46 } },
      dropped: ['logprobs'],
      logFields: { tag: 'search' },
      ...init,
    });
  }

  it('writes one JSON line per completed request with the documented fields', async () => {
    const harness = await logger();
    await harness.run('onResponse', completed());
    const [line, ...rest] = await lines(harness);
    expect(rest).to.have.length(0);
    expect(line).to.include({
      level: 'info',
      requestId: 'req_abc',
      keyName: 'ops',
      protocol: 'chat',
      operation: 'generate',
      method: 'POST',
      path: '/v1/chat/completions',
      model: 'claude-sonnet',
      provider: 'anthropic',
      upstreamModel: 'claude-sonnet-4-5',
      status: 200,
      latencyMs: 250.25,
      ttfbMs: 12.5,
      stream: true,
      tag: 'search',
    });
    expect(line?.usage).to.deep.equal({ inputTokens: 12, outputTokens: 34, totalTokens: 46 });
    expect(line?.dropped).to.deep.equal(['logprobs']);
    expect(Date.parse(String(line?.time))).to.be.closeTo(Date.now(), 60_000);
    expect(line).not.to.have.property('error');
  });

  it('leaves out ttfb for non-stream responses and fields that are unknown', async () => {
    const harness = await logger();
    await harness.run('onResponse', makeContext({ timings: { start: 5, firstByte: 9, end: 15 }, response: { status: 200, headers: {}, streamed: false } }));
    const [line] = await lines(harness);
    expect(line).to.include({ status: 200, latencyMs: 10, stream: false });
    for (const field of ['ttfbMs', 'keyName', 'provider', 'usage', 'dropped', 'error']) expect(line).not.to.have.property(field);
  });

  it('logs a failure once, with its status and error code, even when onResponse also runs', async () => {
    const harness = await logger();
    const ctx = completed({ response: undefined, stream: false });
    await harness.runError(ctx, new GatewayError('upstream_timeout', 'upstream did not answer within 1000 ms'));
    await harness.run('onResponse', ctx);
    const all = await lines(harness);
    expect(all).to.have.length(1);
    expect(all[0]).to.include({ status: 504, requestId: 'req_abc' });
    expect(all[0]?.error).to.deep.equal({ code: 'upstream_timeout', message: 'upstream did not answer within 1000 ms' });
  });

  it('keeps the status the client saw when a stream fails after its 200', async () => {
    const harness = await logger();
    const ctx = completed();
    await harness.runError(ctx, new GatewayError('upstream_bad_response', 'upstream stream ended early'));
    const [line] = await lines(harness);
    expect(line).to.include({ status: 200 });
    expect(line?.error).to.deep.equal({ code: 'upstream_bad_response', message: 'upstream stream ended early' });
  });

  it('logs non-gateway errors as 500 internal_error with ?key= redacted from the message', async () => {
    const harness = await logger();
    const error = new Error(`fetch failed: https://generativelanguage.googleapis.com/v1beta/models?key=${SECRET}`);
    await harness.runError(makeContext({ protocol: 'gemini' }), error);
    const [line] = await lines(harness);
    expect(line).to.include({ status: 500 });
    expect(line?.error).to.deep.equal({
      code: 'internal_error',
      message: `fetch failed: https://generativelanguage.googleapis.com/v1beta/models?key=${REDACTED}`,
    });
  });

  it('redacts key= in the logged path and keeps the other query parameters', async () => {
    const harness = await logger();
    await harness.run('onResponse', makeContext({
      protocol: 'gemini',
      path: '/v1beta/models/demo:streamGenerateContent',
      query: { alt: 'sse', key: SECRET },
      response: { status: 200, headers: {}, streamed: true },
    }));
    await harness.run('onResponse', makeContext({ protocol: 'gemini', path: `/v1beta/models?pageSize=5&key=${SECRET}` }));
    const [streamed, listed] = await lines(harness);
    expect(streamed?.path).to.equal(`/v1beta/models/demo:streamGenerateContent?alt=sse&key=${REDACTED}`);
    expect(listed?.path).to.equal(`/v1beta/models?pageSize=5&key=${REDACTED}`);
  });

  it('with auth in the chain: names the key, never writes it, and logs rejected keys without echoing them', async () => {
    const harness = await logger();
    await harness.use(auth);
    const ok = makeContext({ headers: { authorization: `Bearer ${SECRET}` } });
    await harness.run('onRequest', ok);
    await harness.run('onResponse', ok);
    const wrong = makeContext({ protocol: 'gemini', query: { key: `${SECRET}-x` }, headers: { 'x-goog-api-key': `${SECRET}-y` } });
    const failure = await harness.run('onRequest', wrong).then(() => undefined, (error: Error) => error);
    expect(failure).to.be.instanceOf(GatewayError);
    await harness.runError(wrong, failure as Error);
    const [first, second] = await lines(harness);
    expect(first).to.include({ keyName: 'ops' });
    expect(second).to.include({ status: 401 });
    expect(second).not.to.have.property('keyName');
    expect(second?.error).to.include({ code: 'invalid_api_key' });
  });

  it('lets core fields win over same-named logFields and merges the rest', async () => {
    const harness = await logger();
    await harness.run('onResponse', completed({ logFields: { status: 999, requestId: 'spoofed', 'x-ratelimit-limit-requests': 600 } }));
    const [line] = await lines(harness);
    expect(line).to.include({ status: 200, requestId: 'req_abc', 'x-ratelimit-limit-requests': 600 });
  });

  it('writes at the configured level, filtered by server.logLevel', async () => {
    const verbose = await logger({ level: 'http' }, { server: { ...makeConfig().server, logLevel: 'http' } });
    await verbose.run('onResponse', completed());
    expect((await lines(verbose))[0]).to.include({ level: 'http' });

    rmSync(file);
    const quiet = await logger({ level: 'info' }, { server: { ...makeConfig().server, logLevel: 'warn' } });
    await quiet.run('onResponse', completed());
    expect(await lines(quiet)).to.have.length(0);
  });

  it('resolves a relative destination against the config directory, creating it', async () => {
    const harness = await logger({ destination: 'logs/access.jsonl' });
    await harness.run('onResponse', completed());
    expect(await lines(harness, path.join(dir, 'logs', 'access.jsonl'))).to.have.length(1);
  });

  it('writes to the gateway logger (JSON on stdout) by default', async () => {
    const harness = createHarness(makeConfig());
    await harness.use(logging);
    await harness.run('onResponse', completed({ id: 'req_stdout' }));
    await harness.close();
    const lines = harness.logs.filter((line) => line.message === 'access');
    expect(lines).to.have.length(1);
    expect(lines[0]).to.include({ requestId: 'req_stdout', keyName: 'ops' });
    expect(JSON.stringify(lines[0])).not.to.include(SECRET);
  });

  it('rejects unknown levels and options', async () => {
    let message = '';
    await createHarness().use(logging, { level: 'loud', dest: 'x' }).catch((error: Error) => (message = error.message));
    expect(message).to.include('level: must be one of').and.to.include('unknown option "dest"');
  });
});
