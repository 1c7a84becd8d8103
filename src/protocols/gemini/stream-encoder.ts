// IR stream events → Gemini stream chunks (protocols.md §4.6, §8.14 "P4 emitter"), as SSE (`alt=sse`) or as the
// progressively written JSON array. Text deltas go out at once; tool calls are buffered until their block stops;
// the finish is held until end() so the last chunk carries finishReason and the final usage.
import type { ResponseEncodeContext, StreamEncoder } from '../codec.ts';
import { errorBody } from '../error-shapes.ts';
import type { IRError, IRStopReason, IRStreamBlockStart, IRStreamDelta, IRStreamEvent, IRUsage, Vendor } from '../ir.ts';
import { geminiSseFrame } from '../sse.ts';
import { stopReasonToGemini, usageToGemini } from './mapping.ts';
import { withSignature } from './response.ts';
import { randomId } from '../shared/ids.ts';
import { isRecord } from '../shared/json.ts';
import type { JsonObject } from '../shared/json.ts';

export type GeminiStreamFormat = 'sse' | 'json-array';

type Phase = 'streaming' | 'finishing' | 'done' | 'failed';

interface BlockState {
  kind: 'text' | 'reasoning' | 'tool_call';
  id: string;
  name: string;
  signature?: { vendor: Vendor; value: string };
  args: string;
}

const ENDED_WITHOUT_FINISH: IRError = { status: 502, kind: 'server_error', message: 'upstream stream ended without a finish reason' };
const BAD_ARGUMENTS: IRError = { status: 502, kind: 'server_error', message: 'upstream produced invalid tool-call arguments' };

export class GeminiStreamEncoder implements StreamEncoder {
  private readonly clientModel: string;
  private readonly format: GeminiStreamFormat;
  private phase: Phase = 'streaming';
  private started = false;
  private responseId: string | undefined;
  private chunks = 0;
  private usage: Partial<IRUsage> = {};
  private finish: IRStopReason | undefined;
  private readonly blocks = new Map<number, BlockState>();
  private readonly seen = new Set<number>();

  constructor(ctx: ResponseEncodeContext, format: GeminiStreamFormat = 'sse') {
    this.clientModel = ctx.clientModel;
    this.format = format;
  }

  push(event: IRStreamEvent): string {
    if (this.phase === 'failed') return '';
    if (this.phase === 'done') throw new Error(`Gemini stream: "${event.type}" after the end of the stream`);
    switch (event.type) {
      case 'start':
        if (this.started) throw new Error('Gemini stream: duplicate start');
        this.started = true;
        this.responseId ??= event.id;
        if (event.usage !== undefined) this.usage = { ...this.usage, ...event.usage };
        return '';
      case 'usage':
        this.usage = { ...this.usage, ...event.usage };
        return '';
      case 'block_start':
        this.assertStreaming(event.type);
        return this.openBlock(event.index, event.block);
      case 'block_delta':
        this.assertStreaming(event.type);
        return this.onDelta(event.index, event.delta);
      case 'block_stop':
        this.assertStreaming(event.type);
        return this.onBlockStop(event.index);
      case 'finish':
        return this.onFinish(event.stopReason);
      case 'error':
        return this.fail(event.error);
    }
  }

  end(): string {
    if (this.phase === 'failed' || this.phase === 'done') return '';
    if (this.finish === undefined) return this.fail(ENDED_WITHOUT_FINISH);
    this.phase = 'done';
    const candidate = { content: { role: 'model', parts: [{ text: '' }] }, finishReason: stopReasonToGemini(this.finish), index: 0 };
    const chunk: JsonObject = { candidates: [candidate] };
    if (Object.keys(this.usage).length > 0) chunk.usageMetadata = usageToGemini(this.usage);
    return this.write(this.envelope(chunk)) + (this.format === 'json-array' ? ']' : '');
  }

  private assertStreaming(type: string): void {
    if (this.phase === 'finishing') throw new Error(`Gemini stream: "${type}" after finish`);
  }

  private openBlock(index: number, block: IRStreamBlockStart): string {
    if (this.seen.has(index)) throw new Error(`Gemini stream: block ${index} opened twice`);
    this.seen.add(index);
    const state: BlockState = { kind: block.type, id: '', name: '', args: '' };
    if (block.type === 'tool_call') {
      state.id = block.id;
      state.name = block.name;
      if (block.signature !== undefined) state.signature = block.signature;
    }
    this.blocks.set(index, state);
    return '';
  }

  private onDelta(index: number, delta: IRStreamDelta): string {
    let block = this.blocks.get(index);
    if (block === undefined) {
      if (this.seen.has(index)) throw new Error(`Gemini stream: delta for closed block ${index}`);
      if (delta.type !== 'text' && delta.type !== 'reasoning') throw new Error(`Gemini stream: ${delta.type} for unopened block ${index}`);
      this.openBlock(index, { type: delta.type });
      block = this.blocks.get(index);
    }
    if (block === undefined) return '';
    return this.deltaChunk(block, delta);
  }

  private deltaChunk(block: BlockState, delta: IRStreamDelta): string {
    const mismatch = (): never => {
      throw new Error(`Gemini stream: ${delta.type} delta for a ${block.kind} block`);
    };
    switch (delta.type) {
      case 'text':
        if (block.kind !== 'text') return mismatch();
        return delta.text === '' ? '' : this.partsChunk([{ text: delta.text }]);
      case 'reasoning':
        if (block.kind !== 'reasoning') return mismatch();
        return delta.text === '' ? '' : this.partsChunk([{ text: delta.text, thought: true }]);
      case 'arguments':
        if (block.kind !== 'tool_call') return mismatch();
        block.args += delta.partialJson;
        return '';
      case 'signature':
        if (delta.signature.vendor !== 'gemini') return '';
        if (block.kind === 'tool_call') {
          block.signature = delta.signature;
          return '';
        }
        return this.partsChunk([withSignature(block.kind === 'reasoning' ? { text: '', thought: true } : { text: '' }, delta.signature)]);
    }
  }

  private onBlockStop(index: number): string {
    const block = this.blocks.get(index);
    if (block === undefined) {
      if (this.seen.has(index)) return '';
      throw new Error(`Gemini stream: stop for unopened block ${index}`);
    }
    this.blocks.delete(index);
    return block.kind === 'tool_call' ? this.functionCallChunk(block) : '';
  }

  private functionCallChunk(block: BlockState): string {
    let args: unknown;
    try {
      args = block.args.trim() === '' ? {} : JSON.parse(block.args);
    } catch {
      return this.fail(BAD_ARGUMENTS);
    }
    if (!isRecord(args)) return this.fail(BAD_ARGUMENTS);
    return this.partsChunk([withSignature({ functionCall: { name: block.name, args, id: block.id } }, block.signature)]);
  }

  private onFinish(stopReason: IRStopReason): string {
    if (this.phase === 'finishing') throw new Error('Gemini stream: duplicate finish');
    let text = '';
    for (const index of [...this.blocks.keys()]) {
      text += this.onBlockStop(index);
      if (this.phase === 'failed') return text;
    }
    this.phase = 'finishing';
    this.finish = stopReason;
    return text;
  }

  private partsChunk(parts: JsonObject[]): string {
    return this.write(this.envelope({ candidates: [{ content: { role: 'model', parts }, index: 0 }] }));
  }

  private envelope(chunk: JsonObject): JsonObject {
    this.responseId ??= randomId('');
    return { ...chunk, modelVersion: this.clientModel, responseId: this.responseId };
  }

  private write(chunk: JsonObject): string {
    if (this.format === 'sse') return geminiSseFrame(chunk);
    const separator = this.chunks === 0 ? '[' : ',\r\n';
    this.chunks += 1;
    return separator + JSON.stringify(chunk);
  }

  private fail(error: IRError): string {
    this.phase = 'failed';
    this.blocks.clear();
    return this.write(errorBody('gemini', error)) + (this.format === 'json-array' ? ']' : '');
  }
}
