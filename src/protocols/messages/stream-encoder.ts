// IR stream events → Anthropic SSE (protocols.md §3.4, §8.14 "P3 emitter"). A state machine per response:
// message_start → (content_block_start → deltas → content_block_stop)* → message_delta → message_stop, or `error`.
import type { ResponseEncodeContext, StreamEncoder } from '../codec.ts';
import { anthropicErrorType } from '../error-shapes.ts';
import type { IRError, IRStopReason, IRStreamBlockStart, IRStreamDelta, IRStreamEvent, IRUsage } from '../ir.ts';
import { sseFrame } from '../sse.ts';
import { deltaUsageToAnthropic, stopReasonToAnthropic, usageToAnthropic } from './mapping.ts';
import { anthropicSignature } from './response.ts';
import type { JsonObject } from '../shared/json.ts';
import { messageId } from './util.ts';

type Phase = 'idle' | 'streaming' | 'finishing' | 'done' | 'failed';
type BlockKind = 'text' | 'thinking' | 'redacted' | 'tool_use';

interface OpenBlock {
  irIndex: number;
  kind: BlockKind;
  /** Output index once content_block_start went out (thinking blocks start lazily, on their first content). */
  outIndex: number | undefined;
  startBlock: JsonObject;
}

const ENDED_WITHOUT_FINISH: IRError = { status: 502, kind: 'server_error', message: 'upstream stream ended without a finish reason' };

export class MessagesStreamEncoder implements StreamEncoder {
  private readonly clientModel: string;
  private phase: Phase = 'idle';
  private id: string | undefined;
  private usage: Partial<IRUsage> = {};
  private open: OpenBlock | undefined;
  private nextIndex = 0;
  private readonly seen = new Set<number>();
  private finish: { stopReason: IRStopReason; stopSequence?: string } | undefined;

  constructor(ctx: ResponseEncodeContext) {
    this.clientModel = ctx.clientModel;
  }

  push(event: IRStreamEvent): string {
    if (this.phase === 'failed') return '';
    if (this.phase === 'done') throw new Error(`Anthropic stream: "${event.type}" after message_stop`);
    switch (event.type) {
      case 'start':
        return this.onStart(event);
      case 'usage':
        this.usage = { ...this.usage, ...event.usage };
        return '';
      case 'block_start':
        this.assertOpenForContent(event.type);
        return this.ensureStarted() + this.openBlock(event.index, event.block);
      case 'block_delta':
        this.assertOpenForContent(event.type);
        return this.ensureStarted() + this.onDelta(event.index, event.delta);
      case 'block_stop':
        this.assertOpenForContent(event.type);
        return this.onBlockStop(event.index);
      case 'finish':
        return this.onFinish(event.stopReason, event.stopSequence);
      case 'error':
        return this.fail(event.error);
    }
  }

  end(): string {
    if (this.phase === 'failed' || this.phase === 'done') return '';
    if (this.finish === undefined) return this.fail(ENDED_WITHOUT_FINISH);
    const text = this.ensureStarted() + this.closeOpen();
    this.phase = 'done';
    const delta = {
      type: 'message_delta',
      delta: { stop_reason: stopReasonToAnthropic(this.finish.stopReason), stop_sequence: this.finish.stopSequence ?? null },
      usage: deltaUsageToAnthropic(this.usage),
    };
    return text + frame(delta) + frame({ type: 'message_stop' });
  }

  private onStart(event: IRStreamEvent & { type: 'start' }): string {
    if (this.phase !== 'idle') throw new Error('Anthropic stream: duplicate start');
    this.id = event.id;
    if (event.usage !== undefined) this.usage = { ...this.usage, ...event.usage };
    return this.ensureStarted();
  }

  private ensureStarted(): string {
    if (this.phase !== 'idle') return '';
    this.phase = 'streaming';
    const message = {
      id: messageId(this.id),
      type: 'message',
      role: 'assistant',
      model: this.clientModel,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { ...usageToAnthropic(this.usage), output_tokens: 0 },
    };
    return frame({ type: 'message_start', message });
  }

  private assertOpenForContent(type: string): void {
    if (this.phase === 'finishing') throw new Error(`Anthropic stream: "${type}" after finish`);
  }

  private openBlock(index: number, block: IRStreamBlockStart): string {
    if (this.seen.has(index)) throw new Error(`Anthropic stream: block ${index} opened twice`);
    const text = this.closeOpen();
    const kind: BlockKind = block.type === 'text' ? 'text' : block.type === 'tool_call' ? 'tool_use' : block.redacted === undefined ? 'thinking' : 'redacted';
    this.seen.add(index);
    this.open = { irIndex: index, kind, outIndex: undefined, startBlock: contentBlock(block) };
    // A thinking block with no content (e.g. only another vendor's signature) is never shown to the client.
    return kind === 'thinking' ? text : text + this.startOpen(this.open);
  }

  private startOpen(open: OpenBlock): string {
    if (open.outIndex !== undefined) return '';
    open.outIndex = this.nextIndex++;
    return frame({ type: 'content_block_start', index: open.outIndex, content_block: open.startBlock });
  }

  private onDelta(index: number, delta: IRStreamDelta): string {
    let prefix = '';
    if (this.open?.irIndex !== index) {
      if (this.seen.has(index)) throw new Error(`Anthropic stream: delta for closed block ${index}`);
      if (delta.type === 'signature') return '';
      if (delta.type === 'arguments') throw new Error(`Anthropic stream: arguments for unopened block ${index}`);
      prefix = this.openBlock(index, { type: delta.type });
    }
    const open = this.open;
    if (open === undefined) throw new Error('Anthropic stream: no open block');
    const payload = deltaPayload(open.kind, delta);
    if (payload === undefined) return prefix;
    return prefix + this.startOpen(open) + frame({ type: 'content_block_delta', index: open.outIndex, delta: payload });
  }

  private onBlockStop(index: number): string {
    if (this.open?.irIndex === index) return this.closeOpen();
    if (this.seen.has(index)) return '';
    throw new Error(`Anthropic stream: stop for unopened block ${index}`);
  }

  private closeOpen(): string {
    const open = this.open;
    if (open === undefined) return '';
    this.open = undefined;
    return open.outIndex === undefined ? '' : frame({ type: 'content_block_stop', index: open.outIndex });
  }

  private onFinish(stopReason: IRStopReason, stopSequence: string | undefined): string {
    if (this.phase === 'finishing') throw new Error('Anthropic stream: duplicate finish');
    const text = this.ensureStarted() + this.closeOpen();
    this.phase = 'finishing';
    this.finish = stopSequence === undefined ? { stopReason } : { stopReason, stopSequence };
    return text;
  }

  private fail(error: IRError): string {
    this.phase = 'failed';
    this.open = undefined;
    return frame({ type: 'error', error: { type: anthropicErrorType(error.kind), message: error.message } });
  }
}

function frame(data: JsonObject & { type: string }): string {
  return sseFrame(data, data.type);
}

function contentBlock(block: IRStreamBlockStart): JsonObject {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: '' };
    case 'reasoning':
      if (block.redacted !== undefined) return { type: 'redacted_thinking', data: block.redacted };
      return { type: 'thinking', thinking: '', signature: '' };
    case 'tool_call':
      return { type: 'tool_use', id: block.id, name: block.name, input: {} };
  }
}

/** The content_block_delta payload for an IR delta, or undefined when there is nothing to send. */
function deltaPayload(kind: BlockKind, delta: IRStreamDelta): JsonObject | undefined {
  const mismatch = (): never => {
    throw new Error(`Anthropic stream: ${delta.type} delta for a ${kind} block`);
  };
  switch (delta.type) {
    case 'text':
      if (kind !== 'text') return mismatch();
      return delta.text === '' ? undefined : { type: 'text_delta', text: delta.text };
    case 'reasoning':
      if (kind !== 'thinking') return mismatch();
      return delta.text === '' ? undefined : { type: 'thinking_delta', thinking: delta.text };
    case 'signature': {
      const value = anthropicSignature(delta.signature);
      return kind === 'thinking' && value !== '' ? { type: 'signature_delta', signature: value } : undefined;
    }
    case 'arguments':
      if (kind !== 'tool_use') return mismatch();
      return delta.partialJson === '' ? undefined : { type: 'input_json_delta', partial_json: delta.partialJson };
  }
}
