// Anthropic SSE events → IR stream events (protocols.md §3.4). One decoder per upstream stream.
import type { SseFrame, StreamDecoder } from '../codec.ts';
import type { IRError, IRStreamEvent } from '../ir.ts';
import { decodeStreamError } from './errors.ts';
import { stopReasonFromAnthropic, usageFromAnthropic } from './mapping.ts';
import type { CacheCounts } from './mapping.ts';
import { isRecord } from '../shared/json.ts';
import type { JsonObject } from '../shared/json.ts';
import { numberField, stringField } from './util.ts';

type BlockKind = 'text' | 'thinking' | 'redacted' | 'tool_use';

const KIND_BY_TYPE: Record<string, BlockKind> = {
  text: 'text',
  thinking: 'thinking',
  redacted_thinking: 'redacted',
  tool_use: 'tool_use',
};

const EARLY_END: IRError = { status: 502, kind: 'server_error', message: 'upstream stream ended early' };

export class MessagesStreamDecoder implements StreamDecoder {
  /** Upstream block index → IR index and kind; server-tool blocks are absent and their events skipped. */
  private readonly blocks = new Map<number, { index: number; kind: BlockKind }>();
  private nextIndex = 0;
  private cache: CacheCounts = {};
  private finished = false;
  private stopped = false;
  private failed = false;

  push(frame: SseFrame): IRStreamEvent[] {
    if (this.stopped || this.failed) return [];
    let data: unknown;
    try {
      data = JSON.parse(frame.data);
    } catch {
      return this.fail({ status: 502, kind: 'server_error', message: 'upstream sent an invalid stream event' });
    }
    if (!isRecord(data)) return [];
    const type = frame.event ?? stringField(data, 'type');
    return this.dispatch(type, data);
  }

  end(): IRStreamEvent[] {
    if (this.stopped || this.failed) return [];
    return this.fail(EARLY_END);
  }

  private dispatch(type: string | undefined, data: JsonObject): IRStreamEvent[] {
    switch (type) {
      case 'message_start':
        return this.onMessageStart(data);
      case 'content_block_start':
        return this.onBlockStart(data);
      case 'content_block_delta':
        return this.onBlockDelta(data);
      case 'content_block_stop':
        return this.onBlockStop(data);
      case 'message_delta':
        return this.onMessageDelta(data);
      case 'message_stop':
        return this.onMessageStop();
      case 'error':
        return this.fail(decodeStreamError(data));
      default:
        return [];
    }
  }

  private fail(error: IRError): IRStreamEvent[] {
    this.failed = true;
    return [{ type: 'error', error }];
  }

  private onMessageStart(data: JsonObject): IRStreamEvent[] {
    const message = isRecord(data.message) ? data.message : {};
    const event: IRStreamEvent & { type: 'start' } = { type: 'start' };
    const id = stringField(message, 'id');
    if (id !== undefined) event.id = id;
    const model = stringField(message, 'model');
    if (model !== undefined) event.model = model;
    if (isRecord(message.usage)) {
      event.usage = usageFromAnthropic(message.usage);
      this.cache = { read: event.usage.cacheReadTokens, write: event.usage.cacheWriteTokens };
    }
    return [event];
  }

  private onBlockStart(data: JsonObject): IRStreamEvent[] {
    const upstreamIndex = numberField(data, 'index');
    const block = isRecord(data.content_block) ? data.content_block : {};
    const kind = KIND_BY_TYPE[stringField(block, 'type') ?? ''];
    if (upstreamIndex === undefined || kind === undefined) return [];
    const index = this.nextIndex++;
    this.blocks.set(upstreamIndex, { index, kind });
    switch (kind) {
      case 'text':
        return withInitial({ type: 'block_start', index, block: { type: 'text' } }, index, 'text', stringField(block, 'text'));
      case 'thinking':
        return [
          ...withInitial({ type: 'block_start', index, block: { type: 'reasoning' } }, index, 'reasoning', stringField(block, 'thinking')),
          ...signatureEvent(index, stringField(block, 'signature')),
        ];
      case 'redacted':
        return [{ type: 'block_start', index, block: { type: 'reasoning', redacted: stringField(block, 'data') ?? '' } }];
      case 'tool_use':
        return toolUseStart(block, index);
    }
  }

  private onBlockDelta(data: JsonObject): IRStreamEvent[] {
    const target = this.blocks.get(numberField(data, 'index') ?? -1);
    const delta = isRecord(data.delta) ? data.delta : {};
    if (target === undefined) return [];
    const index = target.index;
    switch (delta.type) {
      case 'text_delta':
        return textEvent(index, 'text', stringField(delta, 'text'));
      case 'thinking_delta':
        return textEvent(index, 'reasoning', stringField(delta, 'thinking'));
      case 'signature_delta':
        return signatureEvent(index, stringField(delta, 'signature'));
      case 'input_json_delta': {
        const partialJson = stringField(delta, 'partial_json');
        if (partialJson === undefined || partialJson === '') return [];
        return [{ type: 'block_delta', index, delta: { type: 'arguments', partialJson } }];
      }
      default:
        return [];
    }
  }

  private onBlockStop(data: JsonObject): IRStreamEvent[] {
    const upstreamIndex = numberField(data, 'index') ?? -1;
    const target = this.blocks.get(upstreamIndex);
    if (target === undefined) return [];
    this.blocks.delete(upstreamIndex);
    return [{ type: 'block_stop', index: target.index }];
  }

  private onMessageDelta(data: JsonObject): IRStreamEvent[] {
    const events: IRStreamEvent[] = [];
    if (isRecord(data.usage)) events.push({ type: 'usage', usage: usageFromAnthropic(data.usage, this.cache) });
    const delta = isRecord(data.delta) ? data.delta : {};
    if (typeof delta.stop_reason === 'string' && !this.finished) {
      this.finished = true;
      const finish: IRStreamEvent & { type: 'finish' } = { type: 'finish', stopReason: stopReasonFromAnthropic(delta.stop_reason) };
      const stopSequence = stringField(delta, 'stop_sequence');
      if (stopSequence !== undefined) finish.stopSequence = stopSequence;
      events.push(finish);
    }
    return events;
  }

  private onMessageStop(): IRStreamEvent[] {
    this.stopped = true;
    if (this.finished) return [];
    this.finished = true;
    return [{ type: 'finish', stopReason: 'end_turn' }];
  }
}

function textEvent(index: number, kind: 'text' | 'reasoning', text: string | undefined): IRStreamEvent[] {
  if (text === undefined || text === '') return [];
  return [{ type: 'block_delta', index, delta: { type: kind, text } }];
}

function signatureEvent(index: number, value: string | undefined): IRStreamEvent[] {
  if (value === undefined || value === '') return [];
  return [{ type: 'block_delta', index, delta: { type: 'signature', signature: { vendor: 'anthropic', value } } }];
}

function withInitial(start: IRStreamEvent, index: number, kind: 'text' | 'reasoning', text: string | undefined): IRStreamEvent[] {
  return [start, ...textEvent(index, kind, text)];
}

function toolUseStart(block: JsonObject, index: number): IRStreamEvent[] {
  const events: IRStreamEvent[] = [
    { type: 'block_start', index, block: { type: 'tool_call', id: stringField(block, 'id') ?? '', name: stringField(block, 'name') ?? '' } },
  ];
  if (isRecord(block.input) && Object.keys(block.input).length > 0) {
    events.push({ type: 'block_delta', index, delta: { type: 'arguments', partialJson: JSON.stringify(block.input) } });
  }
  return events;
}
