// 4 client protocols × 3 upstream types, through real HTTP with the official SDKs: non-stream text,
// stream text (the deltas add up to the non-stream text), usage in the client's own fields, and the
// grammar of every stream the gateway emitted.
import { expect } from 'chai';
import { ANSWER, UPSTREAM_MODEL, UPSTREAM_TYPES } from './fake-providers.ts';
import { CLIENT_PROTOCOLS } from './clients.ts';
import { checkRecordedStreams, expectClientUsage, isNative, modelFor, startWorld, UPSTREAM_KEYS, type World } from './harness.ts';
import { TEST_KEY } from '../../helpers/gateway.ts';

describe('translation matrix: text and usage', function () {
  let world: World;
  before(async () => {
    world = await startWorld();
  });
  afterEach(() => checkRecordedStreams(world));
  after(() => world.close());

  for (const protocol of CLIENT_PROTOCOLS) {
    for (const type of UPSTREAM_TYPES) {
      const how = isNative(protocol, type) ? 'native' : 'translated';
      describe(`${protocol} client → ${type} upstream (${how})`, () => {
        it('answers a non-stream request with the upstream text and usage', async () => {
          const result = await world.driver(protocol).text(modelFor(type), 'Say hello.');
          expect(result.text).to.equal(ANSWER);
          expectClientUsage(protocol, result.usage);
        });

        it('streams deltas that add up to the same text, with usage at the end', async () => {
          const deltas: string[] = [];
          const result = await world.driver(protocol).stream(modelFor(type), 'Say hello.', { onDelta: (d) => deltas.push(d) });
          expect(result.text).to.equal(ANSWER);
          expect(deltas.length).to.be.greaterThan(1);
          expectClientUsage(protocol, result.usage);
          const [raw] = await checkRecordedStreams(world);
          expect(raw).to.be.a('string');
        });

        it('calls the upstream in its own protocol with only the provider credentials', async () => {
          await world.driver(protocol).text(modelFor(type), 'Say hello.');
          const sent = world.providers[type].last();
          const headers = sent.headers;
          if (type === 'openai') {
            expect(sent.path).to.equal('/v1/chat/completions');
            expect(headers.authorization).to.equal(`Bearer ${UPSTREAM_KEYS.openai}`);
            expect((sent.body as { model: string }).model).to.equal(UPSTREAM_MODEL);
          } else if (type === 'anthropic') {
            expect(sent.path).to.equal('/v1/messages');
            expect(headers['x-api-key']).to.equal(UPSTREAM_KEYS.anthropic);
            expect(headers['anthropic-version']).to.match(/^\d{4}-\d{2}-\d{2}$/);
            expect(headers.authorization).to.equal(undefined);
          } else {
            expect(sent.path).to.equal(`/v1beta/models/${UPSTREAM_MODEL}:generateContent`);
            expect(headers['x-goog-api-key']).to.equal(UPSTREAM_KEYS.gemini);
          }
          expect(JSON.stringify(headers)).not.to.include(TEST_KEY);
        });
      });
    }
  }
});
