// Failures across the matrix: an upstream error or cut mid-stream ends the client stream with the client
// protocol's own in-band error (the SDK raises), never a stream that looks complete; an upstream error
// before any output and non-2xx answers come back in the client's error shape with the same status
// (529 → 503 outside Anthropic) and retry hints; a client that hangs up aborts the upstream call.
import { expect } from 'chai';
import type { ClientProtocol } from '../../../src/protocols/ir.ts';
import { ANSWER_PIECES, UPSTREAM_TYPES, type UpstreamType } from './fake-providers.ts';
import { CLIENT_PROTOCOLS, rawRequest } from './clients.ts';
import { checkRecordedStreams, isNative, modelFor, startWorld, type World } from './harness.ts';

type Json = Record<string, unknown>;

/** The error type/status label a protocol's body carries for an HTTP status. */
function errorLabel(protocol: ClientProtocol, body: Json): unknown {
  const error = (body.error ?? {}) as Json;
  if (protocol === 'messages') {
    expect(body.type).to.equal('error');
    return error.type;
  }
  return protocol === 'gemini' ? error.status : error.type;
}

const EXPECTED_LABEL: Record<ClientProtocol, Record<number, string>> = {
  chat: { 429: 'rate_limit_error', 500: 'server_error', 503: 'service_unavailable_error' },
  responses: { 429: 'rate_limit_error', 500: 'server_error', 503: 'service_unavailable_error' },
  messages: { 429: 'rate_limit_error', 500: 'api_error', 503: 'overloaded_error', 529: 'overloaded_error' },
  gemini: { 429: 'RESOURCE_EXHAUSTED', 500: 'INTERNAL', 503: 'UNAVAILABLE' },
};

function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return Promise.race([promise, new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), ms))]);
}

describe('translation matrix: errors and aborts', function () {
  let world: World;
  before(async () => {
    world = await startWorld();
  });
  afterEach(() => checkRecordedStreams(world));
  after(() => world.close());

  for (const protocol of CLIENT_PROTOCOLS) {
    for (const type of UPSTREAM_TYPES) {
      const pair = `${protocol} client ← ${type} upstream${isNative(protocol, type) ? ' (native)' : ''}`;

      // The fast path pipes native streams byte for byte: a cleanly closed upstream is a cleanly closed client stream.
      for (const scenario of isNative(protocol, type) ? ['error-mid'] : ['error-mid', 'cut']) {
        it(`${scenario}: the SDK raises after the deltas that arrived (${pair})`, async () => {
          const deltas: string[] = [];
          const outcome = await world
            .driver(protocol)
            .stream(modelFor(type), `SCENARIO:${scenario}`, { onDelta: (d) => deltas.push(d) })
            .then(() => 'completed', (error: unknown) => error);
          expect(outcome, 'the stream must not look successful').to.be.instanceOf(Error);
          expect(deltas.join('')).to.equal(ANSWER_PIECES.slice(0, 2).join(''));
          const [raw] = await checkRecordedStreams(world);
          expect(raw, 'an in-band error object/event').to.match(/error/);
        });
      }

      if (!isNative(protocol, type)) {
        it(`error-first: an upstream stream error before any output is an HTTP error (${pair})`, async () => {
          const { url, init } = rawRequest(world.gateway.url, protocol, modelFor(type), 'SCENARIO:error-first', true);
          const res = await fetch(url, init);
          // Only an Anthropic upstream can say 529; the others' "overloaded" is a 503 for every client.
          const status = 503;
          expect(res.status).to.equal(status);
          expect(errorLabel(protocol, (await res.json()) as Json)).to.equal(EXPECTED_LABEL[protocol][status]);
        });
      }

      for (const upstreamStatus of type === 'anthropic' ? [429, 500, 529] : [429, 500]) {
        it(`upstream HTTP ${upstreamStatus} is re-shaped for the client (${pair})`, async () => {
          const { url, init } = rawRequest(world.gateway.url, protocol, modelFor(type), `SCENARIO:http-${upstreamStatus}`);
          const res = await fetch(url, init);
          const expected = upstreamStatus === 529 && protocol !== 'messages' ? 503 : upstreamStatus;
          expect(res.status).to.equal(expected);
          const body = (await res.json()) as Json;
          expect(errorLabel(protocol, body)).to.equal(EXPECTED_LABEL[protocol][expected]);
          if (upstreamStatus === 429) {
            expect(res.headers.get('retry-after')).to.equal('7');
            if (!isNative(protocol, type)) expect(res.headers.get('retry-after-ms')).to.equal('7000');
          }
          const outcome = await world.driver(protocol).text(modelFor(type), `SCENARIO:http-${upstreamStatus}`).then(() => undefined, (e: unknown) => e as { status?: number; code?: number });
          expect(outcome?.status ?? outcome?.code, 'the SDK raises with the status').to.equal(expected);
        });
      }

      it(`client abort mid-stream aborts the upstream request (${pair})`, async () => {
        const controller = new AbortController();
        const provider = world.providers[type as UpstreamType];
        const outcome = await world
          .driver(protocol, { record: false })
          .stream(modelFor(type), 'SCENARIO:slow', { signal: controller.signal, onDelta: () => controller.abort() })
          .then(() => 'completed', (error: unknown) => error);
        // The OpenAI SDK ends the iteration quietly on abort; the others raise.
        if (protocol === 'messages' || protocol === 'gemini') expect(outcome).to.be.instanceOf(Error);
        const upstream = provider.last();
        await within(upstream.closed, 3000, 'the upstream request to close');
        expect(upstream.aborted(), 'upstream response was cut short').to.equal(true);
      });
    }
  }
});
