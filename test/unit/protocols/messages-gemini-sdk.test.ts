// The official SDKs' own parsers accept what the Anthropic and Gemini encoders write (no network: the SDKs are
// given a fetch that answers with the encoded body). Upstream events come from the other codec's fixtures.
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import { expect } from 'chai';
import type { Codec, ResponseEncodeContext } from '../../../src/protocols/codec.ts';
import { geminiCodec } from '../../../src/protocols/gemini/index.ts';
import type { IRStreamEvent } from '../../../src/protocols/ir.ts';
import { messagesCodec } from '../../../src/protocols/messages/index.ts';
import { decodeStream, drainEncoder } from '../../helpers/codec.ts';
import { fixtureJson, fixtureText } from '../../helpers/fixtures.ts';

const ctx: ResponseEncodeContext = { request: { model: 'alias', messages: [], stream: true }, clientModel: 'alias' };

const codecFor = (protocol: 'messages' | 'gemini'): Codec => (protocol === 'messages' ? messagesCodec : geminiCodec);

function upstreamEvents(protocol: 'messages' | 'gemini', name: string): IRStreamEvent[] {
  return decodeStream(codecFor(protocol), fixtureText(protocol, 'streams', name));
}

function encodeStream(protocol: 'messages' | 'gemini', events: IRStreamEvent[]): string {
  return drainEncoder(codecFor(protocol).createStreamEncoder(ctx), events);
}

const answer = (body: string, type: string) => async (): Promise<Response> => new Response(body, { headers: { 'content-type': type } });
const anthropic = (body: string, type = 'text/event-stream') => new Anthropic({ apiKey: 'test', maxRetries: 0, fetch: answer(body, type) });
const gemini = (body: string, type = 'text/event-stream') => new GoogleGenAI({ apiKey: 'test', httpOptions: { fetch: answer(body, type) } });

describe('official SDK parsers accept the encoders’ output', () => {
  it('@anthropic-ai/sdk assembles a Gemini thought stream re-encoded as Anthropic SSE', async () => {
    const text = encodeStream('messages', upstreamEvents('gemini', 'thought.txt'));
    const message = await anthropic(text).messages.stream({ model: 'alias', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] }).finalMessage();
    expect(message.model).to.equal('alias');
    expect(message.content.map((block) => block.type)).to.deep.equal(['thinking', 'text']);
    expect(message.stop_reason).to.equal('end_turn');
    expect(message.usage).to.include({ input_tokens: 11, output_tokens: 357 });
  });

  it('@anthropic-ai/sdk assembles Gemini function calls into tool_use blocks', async () => {
    const text = encodeStream('messages', upstreamEvents('gemini', 'function-call.txt'));
    const message = await anthropic(text).messages.stream({ model: 'alias', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] }).finalMessage();
    expect(message.stop_reason).to.equal('tool_use');
    expect(message.content.map((block) => (block.type === 'tool_use' ? [block.name, block.input] : block.type))).to.deep.equal([
      ['get_weather', { city: 'Paris', unit: 'celsius' }],
      ['get_time', { timezone: 'Europe/Paris' }],
    ]);
  });

  it('@anthropic-ai/sdk throws the in-stream error', async () => {
    const text = encodeStream('messages', upstreamEvents('gemini', 'error-mid-stream.txt'));
    const stream = await anthropic(text).messages.create({ model: 'alias', max_tokens: 5, messages: [], stream: true });
    let thrown: unknown;
    try {
      for await (const _event of stream) {
        // consume until the error event
      }
    } catch (error) {
      thrown = error;
    }
    expect(thrown).to.be.instanceOf(Anthropic.APIError);
    expect(String((thrown as Error).message)).to.contain('api_error');
  });

  it('@anthropic-ai/sdk parses a non-stream response encoded from a Gemini upstream', async () => {
    const ir = geminiCodec.decodeResponse(fixtureJson('gemini', 'responses', 'function-call.json'));
    const body = JSON.stringify(messagesCodec.encodeResponse(ir, ctx));
    const message = await anthropic(body, 'application/json').messages.create({ model: 'alias', max_tokens: 5, messages: [] });
    expect(message.stop_reason).to.equal('tool_use');
    expect(message.content).to.have.length(2);
  });

  it('@google/genai streams an Anthropic tool-use stream re-encoded as Gemini SSE', async () => {
    const text = encodeStream('gemini', upstreamEvents('messages', 'tool-use.txt'));
    const chunks = [];
    for await (const chunk of await gemini(text).models.generateContentStream({ model: 'alias', contents: 'hi' })) chunks.push(chunk);
    expect(chunks.map((chunk) => chunk.candidates?.[0]?.content?.parts?.[0]?.text ?? '').join('')).to.equal('Okay, let me check the weather for Paris.');
    expect(chunks.flatMap((chunk) => chunk.candidates?.[0]?.content?.parts?.flatMap((part) => (part.functionCall ? [part.functionCall] : [])) ?? [])).to.deep.equal([
      { name: 'get_weather', args: { location: 'Paris, France', unit: 'celsius' }, id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6' },
      { name: 'get_time', args: { timezone: 'Europe/Paris' }, id: 'toolu_01V2y2gK45rBnl3uOUsO8Vq7' },
    ]);
    const last = chunks.at(-1);
    expect(last?.candidates?.[0]?.finishReason).to.equal('STOP');
    expect(last?.usageMetadata).to.include({ promptTokenCount: 472, candidatesTokenCount: 89 });
  });

  it('@google/genai throws the in-stream error chunk', async () => {
    const text = encodeStream('gemini', upstreamEvents('messages', 'error-mid-stream.txt'));
    let thrown: unknown;
    try {
      for await (const _chunk of await gemini(text).models.generateContentStream({ model: 'alias', contents: 'hi' })) {
        // consume until the error chunk
      }
    } catch (error) {
      thrown = error;
    }
    expect(String((thrown as Error | undefined)?.message)).to.contain('UNAVAILABLE');
  });

  it('@google/genai parses a non-stream response encoded from an Anthropic upstream', async () => {
    const ir = messagesCodec.decodeResponse(fixtureJson('messages', 'responses', 'thinking.json'));
    const body = JSON.stringify(geminiCodec.encodeResponse(ir, ctx));
    const response = await gemini(body, 'application/json').models.generateContent({ model: 'alias', contents: 'hi' });
    expect(response.text).to.equal('Yes, take an umbrella: rain is likely from 2 pm.');
    expect(response.modelVersion).to.equal('alias');
  });
});
