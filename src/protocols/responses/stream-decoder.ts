// Upstream Responses SSE → IR stream events (protocols.md §2.5). Items arrive one at a time; each reasoning
// item, message content part and function_call item becomes one IR block. Hosted-tool, annotation and audio
// events have no IR form and are skipped. `response.completed|incomplete` → usage + finish;
// `response.failed` and `error` → error.
import type { SseFrame, StreamDecoder } from '../codec.ts';
import type { IRError, IRStreamEvent } from '../ir.ts';
import { decodeResponsesError } from './errors.ts';
import { decodeUsage, stopReasonFor } from './mapping.ts';
import { unpackReasoningToken } from './signature.ts';
import { isRecord } from '../shared/json.ts';
import type { JsonObject } from '../shared/json.ts';
import { newId } from './util.ts';

type OpenBlock =
  | { kind: 'text'; index: number; length: number }
  | { kind: 'reasoning'; index: number; summaries: number }
  | { kind: 'tool'; index: number; argsLength: number };

function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

class ResponsesStreamDecoder implements StreamDecoder {
  #started = false;
  #done = false;
  #sawCall = false;
  #nextIndex = 0;
  #open: OpenBlock | undefined;
  #out: IRStreamEvent[] = [];

  push(frame: SseFrame): IRStreamEvent[] {
    if (this.#done) return [];
    const data = frame.data.trim();
    if (data === '[DONE]') return [];
    let event: unknown;
    try {
      event = JSON.parse(data);
    } catch {
      return this.#fail({ status: 502, kind: 'server_error', message: 'Upstream sent malformed JSON in its event stream' });
    }
    if (!isRecord(event)) return [];
    this.#out = [];
    this.#dispatch(str(event['type']) || (frame.event ?? ''), event);
    return this.#out;
  }

  end(): IRStreamEvent[] {
    if (this.#done) return [];
    return this.#fail({ status: 502, kind: 'server_error', message: 'The upstream stream was cut before the response completed' });
  }

  #dispatch(type: string, event: JsonObject): void {
    switch (type) {
      case 'response.created':
      case 'response.queued':
      case 'response.in_progress':
        return this.#start(event['response']);
      case 'response.output_item.added':
        return this.#itemAdded(event['item']);
      case 'response.output_item.done':
        return this.#itemDone(event['item']);
      case 'response.content_part.added':
        return this.#partAdded(event['part']);
      case 'response.content_part.done':
        if (this.#open?.kind === 'text') this.#close();
        return;
      case 'response.output_text.delta':
      case 'response.refusal.delta':
        return this.#text(str(event['delta']));
      case 'response.output_text.done':
      case 'response.refusal.done':
        if (this.#open?.kind !== 'text' || this.#open.length === 0) this.#text(str(event['text'] ?? event['refusal']));
        return;
      case 'response.reasoning_summary_part.added':
        return this.#summaryPart();
      case 'response.reasoning_summary_text.delta':
      case 'response.reasoning_text.delta':
        return this.#reasoning(str(event['delta']));
      case 'response.function_call_arguments.delta':
        return this.#arguments(str(event['delta']));
      case 'response.function_call_arguments.done':
        if (this.#open?.kind === 'tool' && this.#open.argsLength === 0) this.#arguments(str(event['arguments']));
        return;
      case 'response.completed':
      case 'response.incomplete':
        return this.#complete(event['response']);
      case 'response.failed':
      case 'error':
        this.#out.push(...this.#fail(decodeResponsesError(0, event)));
        return;
      default:
        return;
    }
  }

  #start(response: unknown): void {
    if (this.#started) return;
    this.#started = true;
    const start: IRStreamEvent = { type: 'start' };
    if (isRecord(response) && typeof response['id'] === 'string') start.id = response['id'];
    if (isRecord(response) && typeof response['model'] === 'string') start.model = response['model'];
    this.#out.push(start);
  }

  #itemAdded(item: unknown): void {
    this.#start(undefined);
    this.#close();
    if (!isRecord(item)) return;
    if (item['type'] === 'reasoning') {
      const token = typeof item['encrypted_content'] === 'string' ? unpackReasoningToken(item['encrypted_content']) : {};
      this.#openBlock({ kind: 'reasoning', index: this.#nextIndex, summaries: 0 }, token.redacted);
    } else if (item['type'] === 'function_call') {
      this.#sawCall = true;
      const index = this.#nextIndex;
      const id = str(item['call_id']) || newId('call');
      this.#out.push({ type: 'block_start', index, block: { type: 'tool_call', id, name: str(item['name']) } });
      this.#open = { kind: 'tool', index, argsLength: 0 };
      this.#nextIndex++;
      this.#arguments(str(item['arguments']));
    }
  }

  #itemDone(item: unknown): void {
    const open = this.#open;
    if (open?.kind === 'reasoning' && isRecord(item) && typeof item['encrypted_content'] === 'string') {
      const token = unpackReasoningToken(item['encrypted_content']);
      if (token.signature) this.#out.push({ type: 'block_delta', index: open.index, delta: { type: 'signature', signature: token.signature } });
    }
    if (open?.kind === 'tool' && open.argsLength === 0 && isRecord(item)) this.#arguments(str(item['arguments']));
    this.#close();
  }

  #partAdded(part: unknown): void {
    if (!isRecord(part) || (part['type'] !== 'output_text' && part['type'] !== 'refusal')) return;
    this.#close();
    this.#openBlock({ kind: 'text', index: this.#nextIndex, length: 0 });
  }

  #text(delta: string): void {
    if (this.#open?.kind !== 'text') {
      this.#close();
      this.#openBlock({ kind: 'text', index: this.#nextIndex, length: 0 });
    }
    const open = this.#open;
    if (delta === '' || open?.kind !== 'text') return;
    open.length += delta.length;
    this.#out.push({ type: 'block_delta', index: open.index, delta: { type: 'text', text: delta } });
  }

  #summaryPart(): void {
    if (this.#open?.kind !== 'reasoning') {
      this.#close();
      this.#openBlock({ kind: 'reasoning', index: this.#nextIndex, summaries: 0 });
    }
    const open = this.#open;
    if (open?.kind !== 'reasoning') return;
    if (open.summaries > 0) this.#out.push({ type: 'block_delta', index: open.index, delta: { type: 'reasoning', text: '\n\n' } });
    open.summaries++;
  }

  #reasoning(delta: string): void {
    if (this.#open?.kind !== 'reasoning') {
      this.#close();
      this.#openBlock({ kind: 'reasoning', index: this.#nextIndex, summaries: 1 });
    }
    if (delta !== '' && this.#open) this.#out.push({ type: 'block_delta', index: this.#open.index, delta: { type: 'reasoning', text: delta } });
  }

  #arguments(delta: string): void {
    const open = this.#open;
    if (open?.kind !== 'tool' || delta === '') return;
    open.argsLength += delta.length;
    this.#out.push({ type: 'block_delta', index: open.index, delta: { type: 'arguments', partialJson: delta } });
  }

  #complete(response: unknown): void {
    this.#start(response);
    this.#close();
    const body = isRecord(response) ? response : {};
    const usage = decodeUsage(body['usage']);
    if (usage) this.#out.push({ type: 'usage', usage });
    this.#out.push({ type: 'finish', stopReason: stopReasonFor(body['status'], body['incomplete_details'], this.#sawCall) });
    this.#done = true;
  }

  #openBlock(block: Exclude<OpenBlock, { kind: 'tool' }>, redacted?: string): void {
    this.#open = block;
    this.#nextIndex++;
    const start = block.kind === 'text' ? { type: 'text' as const } : { type: 'reasoning' as const, ...(redacted !== undefined ? { redacted } : {}) };
    this.#out.push({ type: 'block_start', index: block.index, block: start });
  }

  #close(): void {
    if (!this.#open) return;
    this.#out.push({ type: 'block_stop', index: this.#open.index });
    this.#open = undefined;
  }

  #fail(error: IRError): IRStreamEvent[] {
    this.#done = true;
    return [{ type: 'error', error }];
  }
}

export function createResponsesStreamDecoder(): StreamDecoder {
  return new ResponsesStreamDecoder();
}
