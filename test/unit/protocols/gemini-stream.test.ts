// Gemini streams: decoding the raw SSE captures, the encoder (SSE and JSON-array forms), and the grammar checker.
import { expect } from 'chai';
import type { ResponseEncodeContext, StreamEncoder } from '../../../src/protocols/codec.ts';
import { createGeminiStreamEncoder, geminiCodec } from '../../../src/protocols/gemini/index.ts';
import type { IRStreamEvent } from '../../../src/protocols/ir.ts';
import { checkGeminiJsonArrayStream, checkGeminiStream } from '../../helpers/grammar/gemini.ts';
import { parseSse } from '../../helpers/grammar/sse.ts';
import { decodeStream, drainEncoder } from '../../helpers/codec.ts';
import { fixtureNames, fixtureText } from '../../helpers/fixtures.ts';
import { collectStream } from '../../helpers/ir-gen.ts';

const ctx: ResponseEncodeContext = { request: { model: 'alias', messages: [], stream: true }, clientModel: 'my-gemini' };

const decodeText = (text: string): IRStreamEvent[] => decodeStream(geminiCodec, text);

const decodeFixture = (name: string): IRStreamEvent[] => decodeText(fixtureText('gemini', 'streams', name));

const encodeAll = (events: IRStreamEvent[], encoder: StreamEncoder = geminiCodec.createStreamEncoder(ctx)): string => drainEncoder(encoder, events);

const chunks = (text: string): Array<Record<string, unknown>> => parseSse(text).map((frame) => JSON.parse(frame.data) as Record<string, unknown>);

const TOOL_EVENTS: IRStreamEvent[] = [
  { type: 'start', id: 'r1' },
  { type: 'block_start', index: 0, block: { type: 'text' } },
  { type: 'block_delta', index: 0, delta: { type: 'text', text: 'Checking.' } },
  { type: 'block_stop', index: 0 },
  { type: 'block_start', index: 1, block: { type: 'tool_call', id: 'toolu_1', name: 'get_weather' } },
  { type: 'block_delta', index: 1, delta: { type: 'arguments', partialJson: '{"city":' } },
  { type: 'block_delta', index: 1, delta: { type: 'signature', signature: { vendor: 'gemini', value: 'sig' } } },
  { type: 'block_delta', index: 1, delta: { type: 'arguments', partialJson: '"Paris"}' } },
  { type: 'block_stop', index: 1 },
  { type: 'finish', stopReason: 'tool_use' },
  { type: 'usage', usage: { inputTokens: 10, outputTokens: 8, reasoningTokens: 3 } },
];

describe('gemini codec: stream decoder', () => {
  it('decodes a CRLF-framed text stream; usage last wins', () => {
    const events = decodeFixture('text.txt');
    expect(events[0]).to.deep.equal({ type: 'start', id: 'abcGZaHhJ4GX1MkPyYv6wAk', model: 'gemini-2.5-flash', usage: { inputTokens: 8 } });
    const collected = collectStream(events);
    expect(collected.content).to.deep.equal([{ type: 'text', text: 'The answer to life, the universe and everything is 42.' }]);
    expect(collected).to.deep.include({ stopReason: 'end_turn', usage: { inputTokens: 8, outputTokens: 11 } });
    expect(events.at(-1)).to.deep.equal({ type: 'finish', stopReason: 'end_turn' });
  });

  it('decodes whole functionCall parts as start + one arguments delta + stop; STOP → tool_use', () => {
    const events = decodeFixture('function-call.txt');
    const collected = collectStream(events);
    expect(collected.content.map((b) => (b.type === 'tool_call' ? [b.name, b.arguments, b.signature?.vendor] : b.type))).to.deep.equal([
      ['get_weather', '{"city":"Paris","unit":"celsius"}', 'gemini'],
      ['get_time', '{"timezone":"Europe/Paris"}', undefined],
    ]);
    expect(collected.stopReason).to.equal('tool_use');
    expect(events.filter((e) => e.type === 'block_delta')).to.have.length(2);
  });

  it('decodes thought parts into a reasoning block signed by the answer’s thoughtSignature', () => {
    const collected = collectStream(decodeFixture('thought.txt'));
    expect(collected.content.map((b) => b.type)).to.deep.equal(['reasoning', 'text']);
    expect(collected.content[0]).to.nested.include({ 'signature.vendor': 'gemini' });
    expect(collected.content[1]).to.deep.equal({ type: 'text', text: 'Assume there are finitely many primes p1…pn. Then N = p1·…·pn + 1 is divisible by none of them.' });
    expect(collected.usage).to.deep.equal({ inputTokens: 11, outputTokens: 357, reasoningTokens: 312 });
  });

  it('turns an error chunk into an IR error and stops', () => {
    const events = decodeFixture('error-mid-stream.txt');
    expect(events.at(-1)).to.nested.include({ type: 'error', 'error.status': 500, 'error.kind': 'server_error' });
  });

  it('reports a stream that ends without finishReason', () => {
    const cut = fixtureText('gemini', 'streams', 'text.txt').split('\r\n\r\n').slice(0, 2).join('\r\n\r\n') + '\r\n\r\n';
    expect(decodeText(cut).at(-1)).to.deep.equal({ type: 'error', error: { status: 502, kind: 'server_error', message: 'upstream stream ended early' } });
  });

  it('accepts JSON-array elements and a blocked prompt', () => {
    const decoder = geminiCodec.createStreamDecoder();
    const events = decoder.push({ data: JSON.stringify([{ promptFeedback: { blockReason: 'SAFETY' }, responseId: 'x' }]) });
    expect(events.map((e) => e.type)).to.deep.equal(['start', 'finish']);
    expect(events[1]).to.deep.equal({ type: 'finish', stopReason: 'content_filter' });
    expect(decoder.end()).to.deep.equal([]);
  });
});

describe('gemini codec: stream encoder', () => {
  it('re-encodes every fixture stream into a valid stream with the same content', () => {
    for (const name of fixtureNames('gemini', 'streams')) {
      const events = decodeFixture(name);
      const text = encodeAll(events);
      expect(checkGeminiStream(text), name).to.deep.equal([]);
      const again = collectStream(decodeText(text));
      const original = collectStream(events);
      expect(again.content.map((b) => (b.type === 'tool_call' ? { ...b, id: '' } : b)), name).to.deep.equal(original.content.map((b) => (b.type === 'tool_call' ? { ...b, id: '' } : b)));
      expect(again.stopReason, name).to.equal(original.stopReason);
    }
  });

  it('streams text at once, buffers a tool call into one functionCall chunk, holds finish for the final usage', () => {
    const encoder = geminiCodec.createStreamEncoder(ctx);
    const outputs = TOOL_EVENTS.map((event) => encoder.push(event));
    expect(outputs.map((text) => text !== '')).to.deep.equal([false, false, true, false, false, false, false, false, true, false, false]);
    const text = outputs.join('') + encoder.end();
    expect(text).to.not.match(/^event:/m);
    expect(chunks(text)).to.deep.equal([
      { candidates: [{ content: { role: 'model', parts: [{ text: 'Checking.' }] }, index: 0 }], modelVersion: 'my-gemini', responseId: 'r1' },
      {
        candidates: [{ content: { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: { city: 'Paris' }, id: 'toolu_1' }, thoughtSignature: 'sig' }] }, index: 0 }],
        modelVersion: 'my-gemini',
        responseId: 'r1',
      },
      {
        candidates: [{ content: { role: 'model', parts: [{ text: '' }] }, finishReason: 'STOP', index: 0 }],
        usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 18, thoughtsTokenCount: 3 },
        modelVersion: 'my-gemini',
        responseId: 'r1',
      },
    ]);
    expect(checkGeminiStream(text)).to.deep.equal([]);
  });

  it('marks reasoning deltas as thought parts and uses CRLF framing', () => {
    const text = encodeAll([
      { type: 'start' },
      { type: 'block_delta', index: 0, delta: { type: 'reasoning', text: 'hmm' } },
      { type: 'block_delta', index: 0, delta: { type: 'signature', signature: { vendor: 'gemini', value: 's' } } },
      { type: 'block_delta', index: 0, delta: { type: 'signature', signature: { vendor: 'anthropic', value: 'a' } } },
      { type: 'finish', stopReason: 'max_tokens' },
    ]);
    expect(text).to.match(/^data: .*\r\n\r\n/);
    const parts = chunks(text).map((c) => (c.candidates as Array<{ content: { parts: unknown[] } }>)[0]?.content.parts[0]);
    expect(parts).to.deep.equal([{ text: 'hmm', thought: true }, { text: '', thought: true, thoughtSignature: 's' }, { text: '' }]);
    expect(checkGeminiStream(text)).to.deep.equal([]);
  });

  it('renders the same events as a JSON-array stream', () => {
    const encoder = createGeminiStreamEncoder(ctx, 'json-array');
    const text = encodeAll(TOOL_EVENTS, encoder);
    expect(checkGeminiJsonArrayStream(text)).to.deep.equal([]);
    expect((JSON.parse(text) as unknown[]).length).to.equal(3);
    const failing = createGeminiStreamEncoder(ctx, 'json-array');
    const failed = encodeAll([{ type: 'start' }, { type: 'error', error: { status: 429, kind: 'rate_limit', message: 'slow down' } }], failing);
    expect(JSON.parse(failed)).to.deep.equal([{ error: { code: 429, message: 'slow down', status: 'RESOURCE_EXHAUSTED' } }]);
  });

  it('ends with an error chunk on error, a missing finish, or broken tool arguments', () => {
    const error = encodeAll([{ type: 'start' }, { type: 'block_delta', index: 0, delta: { type: 'text', text: 'a' } }, { type: 'error', error: { status: 529, kind: 'overloaded', message: 'Overloaded' } }]);
    expect(chunks(error).at(-1)).to.deep.equal({ error: { code: 503, message: 'Overloaded', status: 'UNAVAILABLE' } });
    expect(checkGeminiStream(error)).to.deep.equal([]);
    const cut = encodeAll([{ type: 'start' }, { type: 'block_delta', index: 0, delta: { type: 'text', text: 'a' } }]);
    expect(chunks(cut).at(-1)).to.have.nested.property('error.code', 502);
    const broken = encodeAll([
      { type: 'block_start', index: 0, block: { type: 'tool_call', id: 'c', name: 'f' } },
      { type: 'block_delta', index: 0, delta: { type: 'arguments', partialJson: '{"a":' } },
      { type: 'block_stop', index: 0 },
      { type: 'finish', stopReason: 'tool_use' },
    ]);
    expect(chunks(broken)).to.have.length(1);
    expect(chunks(broken)[0]).to.have.nested.property('error.message', 'upstream produced invalid tool-call arguments');
  });

  it('refuses out-of-order events', () => {
    const encoder = (): StreamEncoder => geminiCodec.createStreamEncoder(ctx);
    const started = encoder();
    started.push({ type: 'start' });
    expect(() => started.push({ type: 'start' })).to.throw(/duplicate start/);
    expect(() => encoder().push({ type: 'block_delta', index: 0, delta: { type: 'arguments', partialJson: '{}' } })).to.throw(/unopened/);
    expect(() => encoder().push({ type: 'block_stop', index: 0 })).to.throw(/unopened/);
    const closed = encoder();
    closed.push({ type: 'block_start', index: 0, block: { type: 'text' } });
    closed.push({ type: 'block_stop', index: 0 });
    expect(() => closed.push({ type: 'block_delta', index: 0, delta: { type: 'text', text: 'x' } })).to.throw(/closed block/);
    const text = encoder();
    text.push({ type: 'block_start', index: 0, block: { type: 'text' } });
    expect(() => text.push({ type: 'block_delta', index: 0, delta: { type: 'reasoning', text: 'x' } })).to.throw(/reasoning delta for a text block/);
    const finished = encoder();
    finished.push({ type: 'finish', stopReason: 'end_turn' });
    expect(() => finished.push({ type: 'block_start', index: 0, block: { type: 'text' } })).to.throw(/after finish/);
    finished.end();
    expect(() => finished.push({ type: 'usage', usage: {} })).to.throw(/after the end/);
  });
});

describe('grammar checker: Gemini', () => {
  const valid = fixtureText('gemini', 'streams', 'text.txt');

  it('accepts every fixture stream', () => {
    for (const name of fixtureNames('gemini', 'streams')) expect(checkGeminiStream(fixtureText('gemini', 'streams', name)), name).to.deep.equal([]);
  });

  it('rejects broken streams', () => {
    const frames = valid.split('\r\n\r\n').filter((f) => f !== '');
    const broken: Record<string, string> = {
      'event line': `event: message\r\n${valid}`,
      'two data lines in one frame': valid.replace('\r\n\r\ndata:', '\r\ndata:'),
      'finishReason not last': `${frames[2]}\r\n\r\n${frames[0]}\r\n\r\n`,
      'no finishReason': `${frames[0]}\r\n\r\n`,
      'invalid JSON': 'data: {"candidates":\r\n\r\n',
      'bad finishReason': valid.replace('"STOP"', '"DONE"'),
      'functionCall without args': 'data: {"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"name":"f"}}]},"finishReason":"STOP"}],"modelVersion":"m","responseId":"r"}\r\n\r\n',
      'chunk after error': `data: {"error":{"code":500,"message":"x","status":"INTERNAL"}}\r\n\r\n${valid}`,
      'error without status code': 'data: {"error":{"message":"x"}}\r\n\r\n',
      'responseId changes': valid.replace('"responseId":"abcGZaHhJ4GX1MkPyYv6wAk"}', '"responseId":"other"}'),
      'no trailing blank line': valid.trimEnd(),
    };
    for (const [what, text] of Object.entries(broken)) expect(checkGeminiStream(text), what).to.not.be.empty;
    expect(checkGeminiJsonArrayStream('[{"candidates":[]}')).to.not.be.empty;
  });
});
