// Anthropic Messages streams: decoding the raw SSE captures, the encoder state machine, and the grammar checker.
import { expect } from 'chai';
import type { ResponseEncodeContext, StreamEncoder } from '../../../src/protocols/codec.ts';
import type { IRStreamEvent } from '../../../src/protocols/ir.ts';
import { messagesCodec } from '../../../src/protocols/messages/index.ts';
import { checkMessagesStream } from '../../helpers/grammar/messages.ts';
import { parseSse } from '../../helpers/grammar/sse.ts';
import { decodeStream, drainEncoder } from '../../helpers/codec.ts';
import { fixtureNames, fixtureText } from '../../helpers/fixtures.ts';
import { collectStream } from '../../helpers/ir-gen.ts';

const ctx: ResponseEncodeContext = { request: { model: 'alias', messages: [], stream: true }, clientModel: 'my-alias' };

const decodeText = (text: string): IRStreamEvent[] => decodeStream(messagesCodec, text);

const decodeFixture = (name: string): IRStreamEvent[] => decodeText(fixtureText('messages', 'streams', name));

const encodeAll = (events: IRStreamEvent[], encoder: StreamEncoder = messagesCodec.createStreamEncoder(ctx)): string => drainEncoder(encoder, events);

const eventNames = (text: string): Array<string | undefined> => parseSse(text).map((frame) => frame.event);

describe('messages codec: stream decoder', () => {
  it('decodes a text stream with ping', () => {
    expect(decodeFixture('text.txt')).to.deep.equal([
      { type: 'start', id: 'msg_01HCDu5LRGeP2o7s2xGmxyx8', model: 'claude-sonnet-4-5-20250929', usage: { inputTokens: 25, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 } },
      { type: 'block_start', index: 0, block: { type: 'text' } },
      { type: 'block_delta', index: 0, delta: { type: 'text', text: 'Hello' } },
      { type: 'block_delta', index: 0, delta: { type: 'text', text: '! How can' } },
      { type: 'block_delta', index: 0, delta: { type: 'text', text: ' I help you today?' } },
      { type: 'block_stop', index: 0 },
      { type: 'usage', usage: { outputTokens: 12 } },
      { type: 'finish', stopReason: 'end_turn' },
    ]);
  });

  it('decodes tool_use blocks with input_json_delta fragments', () => {
    const events = decodeFixture('tool-use.txt');
    const collected = collectStream(events);
    expect(collected.content).to.deep.equal([
      { type: 'text', text: 'Okay, let me check the weather for Paris.' },
      { type: 'tool_call', id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6', name: 'get_weather', arguments: '{"location": "Paris, France", "unit": "celsius"}' },
      { type: 'tool_call', id: 'toolu_01V2y2gK45rBnl3uOUsO8Vq7', name: 'get_time', arguments: '{"timezone": "Europe/Paris"}' },
    ]);
    expect(collected).to.include({ stopReason: 'tool_use' });
    expect(events.filter((e) => e.type === 'block_delta' && e.delta.type === 'arguments' && e.delta.partialJson === '')).to.have.length(0);
  });

  it('decodes thinking with signature_delta and cumulative usage with cache counts', () => {
    const collected = collectStream(decodeFixture('thinking.txt'));
    expect(collected.content[0]).to.nested.include({ type: 'reasoning', 'signature.vendor': 'anthropic' });
    expect((collected.content[0] as { text: string }).text).to.contain('453 = 400 + 50 + 3');
    expect(collected.content[1]).to.deep.equal({ type: 'text', text: '27 * 453 = 12,231' });
    expect(collected.usage).to.deep.include({ inputTokens: 102 + 1024, outputTokens: 185, cacheReadTokens: 1024 });
  });

  it('turns an in-stream error event into an IR error and stops', () => {
    const events = decodeFixture('error-mid-stream.txt');
    expect(events.at(-1)).to.deep.equal({ type: 'error', error: { status: 529, kind: 'overloaded', message: 'Overloaded' } });
    expect(events.filter((e) => e.type === 'error')).to.have.length(1);
  });

  it('reports a stream that ends without message_stop', () => {
    const cut = fixtureText('messages', 'streams', 'text.txt').split('event: message_delta')[0] ?? '';
    expect(decodeText(cut).at(-1)).to.deep.equal({ type: 'error', error: { status: 502, kind: 'server_error', message: 'upstream stream ended early' } });
  });

  it('skips server-tool blocks and renumbers the rest; tolerates frames without event names', () => {
    const decoder = messagesCodec.createStreamDecoder();
    const frames = [
      { type: 'message_start', message: { id: 'msg_1', model: 'c', usage: { input_tokens: 3, output_tokens: 0 } } },
      { type: 'content_block_start', index: 0, content_block: { type: 'server_tool_use', id: 's', name: 'web_search', input: {} } },
      { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{"q":1}' } },
      { type: 'content_block_stop', index: 0 },
      { type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } },
      { type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'x' } },
      { type: 'content_block_stop', index: 1 },
    ];
    const events = frames.flatMap((data) => decoder.push({ data: JSON.stringify(data) }));
    expect(events.slice(1)).to.deep.equal([
      { type: 'block_start', index: 0, block: { type: 'text' } },
      { type: 'block_delta', index: 0, delta: { type: 'text', text: 'x' } },
      { type: 'block_stop', index: 0 },
    ]);
  });

  it('reports invalid JSON as an error event', () => {
    const decoder = messagesCodec.createStreamDecoder();
    expect(decoder.push({ event: 'message_start', data: '{not json' })[0]).to.nested.include({ type: 'error', 'error.status': 502 });
    expect(decoder.end()).to.deep.equal([]);
  });
});

describe('messages codec: stream encoder', () => {
  it('re-encodes every fixture stream into a valid stream with the same content', () => {
    for (const name of fixtureNames('messages', 'streams')) {
      const events = decodeFixture(name);
      const text = encodeAll(events);
      expect(checkMessagesStream(text), name).to.deep.equal([]);
      const again = collectStream(decodeText(text));
      const original = collectStream(events);
      expect(again.content, name).to.deep.equal(original.content);
      expect(again.stopReason, name).to.equal(original.stopReason);
    }
  });

  it('emits message_start with the client model and holds message_delta until end() so late usage is included', () => {
    const encoder = messagesCodec.createStreamEncoder(ctx);
    let text = encoder.push({ type: 'start', id: 'chatcmpl-9' });
    text += encoder.push({ type: 'block_delta', index: 0, delta: { type: 'text', text: 'Hi' } });
    text += encoder.push({ type: 'finish', stopReason: 'end_turn' });
    expect(eventNames(text)).to.deep.equal(['message_start', 'content_block_start', 'content_block_delta', 'content_block_stop']);
    expect(encoder.push({ type: 'usage', usage: { inputTokens: 40, outputTokens: 7, cacheReadTokens: 30 } })).to.equal('');
    const tail = encoder.end();
    text += tail;
    expect(eventNames(tail)).to.deep.equal(['message_delta', 'message_stop']);
    const start = JSON.parse(parseSse(text)[0]!.data) as { message: Record<string, unknown> };
    expect(start.message).to.include({ id: 'msg_chatcmpl-9', model: 'my-alias' });
    expect(JSON.parse(parseSse(tail)[0]!.data)).to.deep.equal({
      type: 'message_delta',
      delta: { stop_reason: 'end_turn', stop_sequence: null },
      usage: { input_tokens: 10, output_tokens: 7, cache_creation_input_tokens: 0, cache_read_input_tokens: 30 },
    });
    expect(checkMessagesStream(text)).to.deep.equal([]);
  });

  it('closes the open block before opening another, with unique increasing indexes', () => {
    const text = encodeAll([
      { type: 'start' },
      { type: 'block_start', index: 5, block: { type: 'text' } },
      { type: 'block_delta', index: 5, delta: { type: 'text', text: 'a' } },
      { type: 'block_start', index: 9, block: { type: 'tool_call', id: 'call_1', name: 'f' } },
      { type: 'block_delta', index: 9, delta: { type: 'arguments', partialJson: '{"x":' } },
      { type: 'block_delta', index: 9, delta: { type: 'arguments', partialJson: '1}' } },
      { type: 'block_stop', index: 5 },
      { type: 'block_stop', index: 9 },
      { type: 'finish', stopReason: 'tool_use' },
    ]);
    expect(checkMessagesStream(text)).to.deep.equal([]);
    const indexes = parseSse(text).filter((f) => f.event === 'content_block_start').map((f) => (JSON.parse(f.data) as { index: number }).index);
    expect(indexes).to.deep.equal([0, 1]);
  });

  it('does not show a thinking block that carries only another vendor’s signature', () => {
    const text = encodeAll([
      { type: 'start' },
      { type: 'block_start', index: 0, block: { type: 'reasoning' } },
      { type: 'block_delta', index: 0, delta: { type: 'signature', signature: { vendor: 'gemini', value: 'g' } } },
      { type: 'block_stop', index: 0 },
      { type: 'block_delta', index: 1, delta: { type: 'text', text: 'answer' } },
      { type: 'finish', stopReason: 'end_turn' },
    ]);
    expect(checkMessagesStream(text)).to.deep.equal([]);
    expect(text).to.not.contain('thinking');
  });

  it('refuses out-of-order events', () => {
    const started = (): StreamEncoder => {
      const encoder = messagesCodec.createStreamEncoder(ctx);
      encoder.push({ type: 'start' });
      return encoder;
    };
    expect(() => started().push({ type: 'start' })).to.throw(/duplicate start/);
    expect(() => started().push({ type: 'block_delta', index: 0, delta: { type: 'arguments', partialJson: '{}' } })).to.throw(/unopened/);
    expect(() => started().push({ type: 'block_stop', index: 3 })).to.throw(/unopened/);
    const closed = started();
    closed.push({ type: 'block_start', index: 0, block: { type: 'text' } });
    closed.push({ type: 'block_stop', index: 0 });
    expect(() => closed.push({ type: 'block_delta', index: 0, delta: { type: 'text', text: 'x' } })).to.throw(/closed block/);
    expect(() => closed.push({ type: 'block_start', index: 0, block: { type: 'text' } })).to.throw(/opened twice/);
    const mismatch = started();
    mismatch.push({ type: 'block_start', index: 0, block: { type: 'text' } });
    expect(() => mismatch.push({ type: 'block_delta', index: 0, delta: { type: 'arguments', partialJson: '{' } })).to.throw(/arguments delta for a text block/);
    const finished = started();
    finished.push({ type: 'finish', stopReason: 'end_turn' });
    expect(() => finished.push({ type: 'block_start', index: 0, block: { type: 'text' } })).to.throw(/after finish/);
    finished.end();
    expect(() => finished.push({ type: 'usage', usage: {} })).to.throw(/after message_stop/);
    expect(finished.end()).to.equal('');
  });

  it('ends with an error event on error, and nothing after', () => {
    const encoder = messagesCodec.createStreamEncoder(ctx);
    let text = encoder.push({ type: 'start' }) + encoder.push({ type: 'block_delta', index: 0, delta: { type: 'text', text: 'partial' } });
    text += encoder.push({ type: 'error', error: { status: 529, kind: 'overloaded', message: 'Overloaded' } });
    text += encoder.push({ type: 'block_delta', index: 0, delta: { type: 'text', text: 'more' } }) + encoder.end();
    expect(eventNames(text).at(-1)).to.equal('error');
    expect(JSON.parse(parseSse(text).at(-1)!.data)).to.deep.equal({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } });
    expect(checkMessagesStream(text)).to.deep.equal([]);
  });

  it('never ends a stream that had no finish as if it succeeded', () => {
    const encoder = messagesCodec.createStreamEncoder(ctx);
    const text = encoder.push({ type: 'start' }) + encoder.push({ type: 'block_delta', index: 0, delta: { type: 'text', text: 'cut' } }) + encoder.end();
    expect(eventNames(text).at(-1)).to.equal('error');
    expect(checkMessagesStream(text)).to.deep.equal([]);
  });
});

describe('grammar checker: Anthropic Messages', () => {
  const valid = fixtureText('messages', 'streams', 'tool-use.txt');
  const frames = valid.split('\n\n').filter((f) => f !== '').map((f) => `${f}\n\n`);
  const without = (i: number): string => frames.filter((_f, j) => j !== i).join('');

  it('accepts every fixture stream', () => {
    for (const name of fixtureNames('messages', 'streams')) expect(checkMessagesStream(fixtureText('messages', 'streams', name)), name).to.deep.equal([]);
  });

  it('rejects broken streams', () => {
    const broken: Record<string, string> = {
      'no event line': valid.replace('event: content_block_start\n', ''),
      'event differs from type': valid.replace('event: content_block_stop', 'event: message_stop'),
      'skipped index': valid.replace('"index":1', '"index":2'),
      'missing message_start': without(0),
      'missing message_stop': without(frames.length - 1),
      'missing block stop (overlap)': without(4),
      'delta type mismatch': valid.replace('"type":"text_delta"', '"type":"input_json_delta"'),
      'invalid tool JSON': valid.replace('"partial_json":"{\\"location\\":"', '"partial_json":"{{"'),
      'frame after message_stop': valid + frames[1],
      'no trailing blank line': valid.trimEnd(),
      'message_delta with open block': frames.slice(0, 3).join('') + frames.slice(-2).join(''),
    };
    for (const [what, text] of Object.entries(broken)) expect(checkMessagesStream(text), what).to.not.be.empty;
  });
});
