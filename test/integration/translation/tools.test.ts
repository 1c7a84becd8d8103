// Tool-call round trip for every client × upstream pair: the call arrives in the client's shape, the client
// sends the result back, the upstream receives call and result in ITS shape with the right id and name,
// and the final answer comes through. Gemini upstreams return calls without ids and with a thought
// signature: the gateway invents the id and restores the signature on the next turn.
import { expect } from 'chai';
import { GEMINI_SIGNATURE, TOOL_ANSWER, TOOL_CALL_IDS, UPSTREAM_TYPES, type UpstreamType } from './fake-providers.ts';
import { CLIENT_PROTOCOLS, TOOL_RESULT } from './clients.ts';
import { checkRecordedStreams, isNative, modelFor, startWorld, type World } from './harness.ts';

type Json = Record<string, unknown>;
const list = (value: unknown): Json[] => (Array.isArray(value) ? (value as Json[]) : []);

/** Finds the call and its result in the second upstream request, in that upstream's own wire shape. */
function upstreamHistory(type: UpstreamType, body: Json): { callId: unknown; callName: unknown; resultId: unknown; resultName?: unknown; result: unknown; signature?: unknown } {
  if (type === 'openai') {
    const messages = list(body.messages);
    const call = list(messages.find((m) => m.role === 'assistant')?.tool_calls)[0] ?? {};
    const tool = messages.find((m) => m.role === 'tool') ?? {};
    return { callId: call.id, callName: (call.function as Json | undefined)?.name, resultId: tool.tool_call_id, result: tool.content };
  }
  if (type === 'anthropic') {
    const messages = list(body.messages);
    const call = list(messages.find((m) => m.role === 'assistant')?.content).find((b) => b.type === 'tool_use') ?? {};
    const result = list(messages.at(-1)?.content).find((b) => b.type === 'tool_result') ?? {};
    const content = typeof result.content === 'string' ? result.content : list(result.content).map((b) => b.text).join('');
    return { callId: call.id, callName: call.name, resultId: result.tool_use_id, result: content };
  }
  const contents = list(body.contents);
  const callPart = list(contents.find((c) => c.role === 'model')?.parts).find((p) => p.functionCall) ?? {};
  const call = (callPart.functionCall ?? {}) as Json;
  const response = (list(contents.at(-1)?.parts).find((p) => p.functionResponse)?.functionResponse ?? {}) as Json;
  return { callId: call.id, callName: call.name, resultId: response.id, resultName: response.name, result: JSON.stringify((response.response as Json | undefined)?.output), signature: callPart.thoughtSignature };
}

describe('translation matrix: tool-call round trip', function () {
  let world: World;
  before(async () => {
    world = await startWorld();
  });
  afterEach(() => checkRecordedStreams(world));
  after(() => world.close());

  for (const protocol of CLIENT_PROTOCOLS) {
    for (const type of UPSTREAM_TYPES) {
      it(`${protocol} client → ${type} upstream${isNative(protocol, type) ? ' (native)' : ''}`, async () => {
        const round = await world.driver(protocol).toolRoundTrip(modelFor(type));
        expect(round.name).to.equal('get_weather');
        expect(round.args).to.deep.equal({ city: 'Paris' });
        expect(round.finalText).to.equal(TOOL_ANSWER);
        const upstreamId = TOOL_CALL_IDS[type];
        if (upstreamId) expect(round.callId, 'the upstream id reaches the client unchanged').to.equal(upstreamId);
        else if (protocol !== 'gemini') expect(round.callId, 'an id is invented for Gemini calls').to.match(/^call_/);

        const provider = world.providers[type];
        const second = upstreamHistory(type, provider.last().body as Json);
        if (protocol !== 'gemini' || type !== 'gemini') {
          expect(second.callId).to.equal(round.callId);
          expect(second.resultId).to.equal(round.callId);
        }
        expect(second.callName).to.equal('get_weather');
        expect(JSON.parse(String(second.result))).to.deep.equal(JSON.parse(TOOL_RESULT));
        if (type === 'gemini') {
          expect(second.resultName, 'Gemini needs the function name on the response').to.equal('get_weather');
          expect(second.signature, 'the thought signature comes back on the call').to.equal(GEMINI_SIGNATURE);
        }
      });
    }
  }

  for (const protocol of CLIENT_PROTOCOLS) {
    for (const type of UPSTREAM_TYPES) {
      it(`streams the call: ${protocol} client ← ${type} upstream`, async () => {
        const call = await world.driver(protocol).streamToolCall(modelFor(type));
        expect(call.name).to.equal('get_weather');
        expect(call.args).to.deep.equal({ city: 'Paris' });
        const upstreamId = TOOL_CALL_IDS[type];
        if (upstreamId) expect(call.callId).to.equal(upstreamId);
        await checkRecordedStreams(world);
      });
    }
  }

  it('keeps the signature of a streamed Gemini call for the next turn (Anthropic client)', async () => {
    const call = await world.driver('messages').streamToolCall(modelFor('gemini'));
    const res = await fetch(`${world.gateway.url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': 'sk-test-ops-0123456789', 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
      body: JSON.stringify({
        model: modelFor('gemini'),
        max_tokens: 100,
        messages: [
          { role: 'user', content: 'SCENARIO:tool weather?' },
          { role: 'assistant', content: [{ type: 'tool_use', id: call.callId, name: call.name, input: call.args }] },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: call.callId, content: TOOL_RESULT }] },
        ],
      }),
    });
    expect(res.status).to.equal(200);
    const sent = upstreamHistory('gemini', world.providers.gemini.last().body as Json);
    expect(sent.callId).to.equal(call.callId);
    expect(sent.signature).to.equal(GEMINI_SIGNATURE);
  });

  it('sends the documented sentinel for a Gemini-bound call the gateway never saw', async () => {
    const driverless = await fetch(`${world.gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer sk-test-ops-0123456789`, 'content-type': 'application/json' },
      body: JSON.stringify({
        model: modelFor('gemini'),
        messages: [
          { role: 'user', content: 'SCENARIO:tool weather?' },
          { role: 'assistant', content: null, tool_calls: [{ id: 'call_from_elsewhere', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Rome"}' } }] },
          { role: 'tool', tool_call_id: 'call_from_elsewhere', content: 'sunny' },
        ],
      }),
    });
    expect(driverless.status).to.equal(200);
    const sent = upstreamHistory('gemini', world.providers.gemini.last().body as Json);
    expect(sent.signature).to.equal('skip_thought_signature_validator');
    expect(sent.resultName).to.equal('get_weather');
  });
});
