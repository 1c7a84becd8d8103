// The translation suite's world: one fake provider per type, a gateway with protocol-translate routing
// `via-<type>` to each, SDK drivers with stream recording, the grammar check over every recorded stream,
// and the expected usage in each client protocol's own fields.
import { expect } from 'chai';
import type { ClientProtocol } from '../../../src/protocols/ir.ts';
import { checkChatStream } from '../../helpers/grammar/chat.ts';
import { checkGeminiJsonArrayStream, checkGeminiStream } from '../../helpers/grammar/gemini.ts';
import { checkMessagesStream } from '../../helpers/grammar/messages.ts';
import { checkResponsesStream } from '../../helpers/grammar/responses.ts';
import { startTestGateway, testConfig, type TestGateway } from '../../helpers/gateway.ts';
import { createDriver, recordingFetch, type CapturedStream, type ClientDriver } from './clients.ts';
import { startFakeProvider, UPSTREAM_MODEL, UPSTREAM_TYPES, type FakeProvider, type UpstreamType } from './fake-providers.ts';

export const UPSTREAM_KEYS: Record<UpstreamType, string> = { openai: 'sk-upstream-openai', anthropic: 'sk-ant-upstream', gemini: 'gemini-upstream-key' };

export interface World {
  gateway: TestGateway;
  providers: Record<UpstreamType, FakeProvider>;
  captured: CapturedStream[];
  driver(protocol: ClientProtocol, options?: { record?: boolean }): ClientDriver;
  close(): Promise<void>;
}

export const modelFor = (type: UpstreamType): string => `via-${type}`;

export async function startWorld(translateOptions: Record<string, unknown> = { imageFetch: { allowPrivateNetworks: true } }): Promise<World> {
  const list = await Promise.all(UPSTREAM_TYPES.map((type) => startFakeProvider(type)));
  const providers = Object.fromEntries(list.map((p) => [p.type, p])) as Record<UpstreamType, FakeProvider>;
  const gateway = await startTestGateway(
    testConfig({
      providers: {
        'fake-openai': { type: 'openai', baseUrl: `${providers.openai.upstream.url}/v1`, apiKey: UPSTREAM_KEYS.openai },
        'fake-anthropic': { type: 'anthropic', baseUrl: providers.anthropic.upstream.url, apiKey: UPSTREAM_KEYS.anthropic },
        'fake-gemini': { type: 'gemini', baseUrl: providers.gemini.upstream.url, apiKey: UPSTREAM_KEYS.gemini },
      },
      models: UPSTREAM_TYPES.map((type) => ({ name: modelFor(type), maxTokens: 1000, targets: [{ provider: `fake-${type}`, model: UPSTREAM_MODEL }] })),
      plugins: ['logging', 'auth', { 'protocol-translate': translateOptions }],
    }),
  );
  const captured: CapturedStream[] = [];
  return {
    gateway,
    providers,
    captured,
    driver: (protocol, options = {}) => createDriver(protocol, gateway.url, options.record === false ? undefined : recordingFetch(protocol, captured)),
    async close() {
      await gateway.close();
      await Promise.all(list.map((p) => p.upstream.close()));
    },
  };
}

/** Grammar violations of one emitted stream, by the client protocol that received it. */
export function grammarViolations(protocol: ClientProtocol, stream: { contentType: string; text: string }): string[] {
  switch (protocol) {
    case 'chat':
      return checkChatStream(stream.text);
    case 'responses':
      return checkResponsesStream(stream.text);
    case 'messages':
      return checkMessagesStream(stream.text);
    case 'gemini':
      return stream.contentType.includes('json') ? checkGeminiJsonArrayStream(stream.text) : checkGeminiStream(stream.text);
  }
}

/**
 * Checks (and forgets) every stream the SDKs received since the last call, each with the grammar of the
 * protocol that received it; returns their texts. Suites also run it after each test, so no emitted stream
 * goes unchecked.
 */
export async function checkRecordedStreams(world: World): Promise<string[]> {
  const streams = world.captured.splice(0);
  const texts: string[] = [];
  for (const stream of streams) {
    const text = await stream.body;
    const violations = grammarViolations(stream.protocol, { contentType: stream.contentType, text });
    expect(violations, `${stream.protocol} stream from ${stream.url}:\n${text}`).to.deep.equal([]);
    texts.push(text);
  }
  return texts;
}

type Json = Record<string, unknown>;

/** USAGE (prompt 21 incl. 4 cache reads, output 9) as each client protocol spells it. */
export function expectClientUsage(protocol: ClientProtocol, raw: unknown): void {
  expect(raw, 'usage').to.be.an('object');
  const usage = raw as Json;
  const detail = (key: string): Json => (usage[key] ?? {}) as Json;
  switch (protocol) {
    case 'chat':
      expect(usage).to.include({ prompt_tokens: 21, completion_tokens: 9, total_tokens: 30 });
      expect(detail('prompt_tokens_details').cached_tokens).to.equal(4);
      return;
    case 'responses':
      expect(usage).to.include({ input_tokens: 21, output_tokens: 9, total_tokens: 30 });
      expect(detail('input_tokens_details').cached_tokens).to.equal(4);
      return;
    case 'messages':
      expect(usage).to.include({ input_tokens: 17, output_tokens: 9, cache_read_input_tokens: 4 });
      return;
    case 'gemini':
      expect(usage).to.include({ promptTokenCount: 21, candidatesTokenCount: 9, totalTokenCount: 30, cachedContentTokenCount: 4 });
      return;
  }
}

/** Which pairs the core sends through its same-protocol fast path (no translation). */
export function isNative(protocol: ClientProtocol, type: UpstreamType): boolean {
  return (protocol === 'chat' && type === 'openai') || (protocol === 'messages' && type === 'anthropic') || (protocol === 'gemini' && type === 'gemini');
}
