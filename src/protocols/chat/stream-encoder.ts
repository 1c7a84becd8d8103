// IR stream events → Chat Completions SSE for a Chat client (protocols.md §1.4, §8.14 "P1 emitter").
// A small state machine: init → streaming → finished → closed, or → errored. Anything out of order throws
// instead of producing a chunk a strict client would reject. `finish` writes the finish chunk; usage may still
// arrive after it (Chat-style upstreams send it last), so the usage chunk and `[DONE]` are written by end().
import type { ResponseEncodeContext, StreamEncoder } from '../codec.ts';
import { errorBody } from '../error-shapes.ts';
import type { IRError, IRStreamDelta, IRStreamEvent, IRUsage } from '../ir.ts';
import { sseFrame } from '../sse.ts';
import { mergeUsage } from '../shared/usage.ts';
import { encodeUsage, finishReasonFor } from './mapping.ts';
import { unixSeconds } from '../shared/ids.ts';
import type { JsonObject } from '../shared/json.ts';
import { chatCompletionId } from './util.ts';

type State = 'init' | 'streaming' | 'finished' | 'errored' | 'closed';
type OpenBlock = { index: number; kind: 'text' | 'reasoning' } | { index: number; kind: 'tool_call'; toolIndex: number };

const DELTA_FOR_BLOCK: Record<OpenBlock['kind'], ReadonlyArray<IRStreamDelta['type']>> = {
  text: ['text'],
  reasoning: ['reasoning', 'signature'],
  tool_call: ['arguments'],
};

class ChatStreamEncoder implements StreamEncoder {
  #state: State = 'init';
  readonly #created = unixSeconds();
  readonly #model: string;
  readonly #includeUsage: boolean;
  #id = '';
  #open: OpenBlock | undefined;
  #lastIndex = -1;
  #toolCounter = 0;
  #usage: Partial<IRUsage> = {};

  constructor(ctx: ResponseEncodeContext) {
    this.#model = ctx.clientModel;
    this.#includeUsage = ctx.request.includeUsage === true;
  }

  push(event: IRStreamEvent): string {
    switch (event.type) {
      case 'start':
        this.#expect(this.#state === 'init', event);
        this.#state = 'streaming';
        this.#id = chatCompletionId(event.id);
        if (event.usage) this.#usage = mergeUsage(this.#usage, event.usage);
        return this.#chunk({ role: 'assistant', content: '', refusal: null });
      case 'block_start':
        return this.#blockStart(event);
      case 'block_delta':
        return this.#blockDelta(event.index, event.delta);
      case 'block_stop':
        this.#expect(this.#open?.index === event.index, event);
        this.#open = undefined;
        return '';
      case 'usage':
        this.#expect(this.#state === 'streaming' || this.#state === 'finished', event);
        this.#usage = mergeUsage(this.#usage, event.usage);
        return '';
      case 'finish':
        this.#expect(this.#state === 'streaming' && this.#open === undefined, event);
        this.#state = 'finished';
        return this.#chunk({}, finishReasonFor(event.stopReason));
      case 'error':
        this.#expect(this.#state === 'init' || this.#state === 'streaming' || this.#state === 'finished', event);
        return this.#error(event.error);
    }
  }

  end(): string {
    if (this.#state === 'finished') {
      this.#state = 'closed';
      return (this.#includeUsage ? this.#usageChunk() : '') + sseFrame('[DONE]');
    }
    if (this.#state === 'init' || this.#state === 'streaming') {
      return this.#error({ status: 502, kind: 'server_error', message: 'The upstream stream ended before completion' });
    }
    return '';
  }

  #blockStart(event: Extract<IRStreamEvent, { type: 'block_start' }>): string {
    this.#expect(this.#state === 'streaming' && this.#open === undefined && event.index > this.#lastIndex, event);
    this.#lastIndex = event.index;
    const block = event.block;
    if (block.type !== 'tool_call') {
      this.#open = { index: event.index, kind: block.type };
      return '';
    }
    const toolIndex = this.#toolCounter++;
    this.#open = { index: event.index, kind: 'tool_call', toolIndex };
    const call = { index: toolIndex, id: block.id, type: 'function', function: { name: block.name, arguments: '' } };
    return this.#chunk({ tool_calls: [call] });
  }

  #blockDelta(index: number, delta: IRStreamDelta): string {
    const open = this.#open;
    if (!open || open.index !== index || !DELTA_FOR_BLOCK[open.kind].includes(delta.type)) {
      throw new Error(`chat stream encoder: ${delta.type} delta for block ${index} is out of order`);
    }
    switch (delta.type) {
      case 'text':
        return delta.text === '' ? '' : this.#chunk({ content: delta.text });
      case 'reasoning':
        return delta.text === '' ? '' : this.#chunk({ reasoning_content: delta.text });
      case 'arguments':
        if (delta.partialJson === '' || open.kind !== 'tool_call') return '';
        return this.#chunk({ tool_calls: [{ index: open.toolIndex, function: { arguments: delta.partialJson } }] });
      case 'signature':
        return '';
    }
  }

  #chunk(delta: JsonObject, finishReason: string | null = null): string {
    const chunk: JsonObject = {
      id: this.#id,
      object: 'chat.completion.chunk',
      created: this.#created,
      model: this.#model,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    };
    if (this.#includeUsage) chunk['usage'] = null;
    return sseFrame(chunk);
  }

  #usageChunk(): string {
    const chunk = { id: this.#id, object: 'chat.completion.chunk', created: this.#created, model: this.#model, choices: [], usage: encodeUsage(this.#usage) };
    return sseFrame(chunk);
  }

  #error(error: IRError): string {
    this.#state = 'errored';
    return sseFrame(errorBody('chat', error));
  }

  #expect(condition: boolean, event: IRStreamEvent): void {
    if (!condition) throw new Error(`chat stream encoder: '${event.type}' event is out of order (state ${this.#state})`);
  }
}

export function createChatStreamEncoder(ctx: ResponseEncodeContext): StreamEncoder {
  return new ChatStreamEncoder(ctx);
}
