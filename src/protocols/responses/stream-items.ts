// The output item currently being streamed to a Responses client: message (one output_text part),
// reasoning (one summary part) or function_call. Emits the item's added/delta/done events in the order the
// SDK's accumulator requires and appends the finished item to the response output.
import type { IRStreamBlockStart, IRStreamDelta, Vendor } from '../ir.ts';
import { functionCallItem, messageItem, outputTextPart, reasoningItem, summaryPart } from './output.ts';
import type { JsonObject } from '../shared/json.ts';
import { newId } from './util.ts';

export type Emit = (type: string, payload: JsonObject) => void;

interface ItemBase {
  irIndex: number;
  outputIndex: number;
  id: string;
  text: string;
}

type OpenItem =
  | (ItemBase & { kind: 'text' })
  | (ItemBase & { kind: 'reasoning'; partOpen: boolean; signature?: { vendor: Vendor; value: string }; redacted?: string })
  | (ItemBase & { kind: 'tool'; callId: string; name: string });

export class ItemWriter {
  #open: OpenItem | undefined;
  readonly #emit: Emit;
  readonly #output: JsonObject[];

  constructor(emit: Emit, output: JsonObject[]) {
    this.#emit = emit;
    this.#output = output;
  }

  get isOpen(): boolean {
    return this.#open !== undefined;
  }

  get openIndex(): number | undefined {
    return this.#open?.irIndex;
  }

  open(irIndex: number, block: IRStreamBlockStart): void {
    const base = { irIndex, outputIndex: this.#output.length, text: '' };
    if (block.type === 'text') {
      const item: OpenItem = { ...base, kind: 'text', id: newId('msg') };
      this.#open = item;
      this.#emit('response.output_item.added', { output_index: item.outputIndex, item: messageItem(item.id, [], 'in_progress') });
      this.#emit('response.content_part.added', { ...this.#ids(item), content_index: 0, part: outputTextPart('') });
    } else if (block.type === 'reasoning') {
      const item: OpenItem = { ...base, kind: 'reasoning', id: newId('rs'), partOpen: false };
      if (block.redacted !== undefined) item.redacted = block.redacted;
      this.#open = item;
      this.#emit('response.output_item.added', { output_index: item.outputIndex, item: reasoningItem(item.id, item) });
    } else {
      const item: OpenItem = { ...base, kind: 'tool', id: newId('fc'), callId: block.id, name: block.name };
      this.#open = item;
      const call = { id: item.callId, name: item.name, arguments: '' };
      this.#emit('response.output_item.added', { output_index: item.outputIndex, item: functionCallItem(item.id, call, 'in_progress') });
    }
  }

  /** Returns false when the delta does not belong to the open item's kind. */
  delta(delta: IRStreamDelta): boolean {
    const item = this.#open;
    if (!item) return false;
    if (item.kind === 'text' && delta.type === 'text') {
      item.text += delta.text;
      if (delta.text !== '') this.#emit('response.output_text.delta', { ...this.#ids(item), content_index: 0, delta: delta.text, logprobs: [] });
    } else if (item.kind === 'reasoning' && delta.type === 'reasoning') {
      if (delta.text === '') return true;
      if (!item.partOpen) this.#emit('response.reasoning_summary_part.added', { ...this.#ids(item), summary_index: 0, part: summaryPart('') });
      item.partOpen = true;
      item.text += delta.text;
      this.#emit('response.reasoning_summary_text.delta', { ...this.#ids(item), summary_index: 0, delta: delta.text });
    } else if (item.kind === 'reasoning' && delta.type === 'signature') {
      item.signature = delta.signature;
    } else if (item.kind === 'tool' && delta.type === 'arguments') {
      item.text += delta.partialJson;
      if (delta.partialJson !== '') this.#emit('response.function_call_arguments.delta', { ...this.#ids(item), delta: delta.partialJson });
    } else {
      return false;
    }
    return true;
  }

  close(): void {
    const item = this.#open;
    if (!item) return;
    this.#open = undefined;
    let done: JsonObject;
    if (item.kind === 'text') {
      this.#emit('response.output_text.done', { ...this.#ids(item), content_index: 0, text: item.text, logprobs: [] });
      this.#emit('response.content_part.done', { ...this.#ids(item), content_index: 0, part: outputTextPart(item.text) });
      done = messageItem(item.id, [item.text], 'completed');
    } else if (item.kind === 'reasoning') {
      if (item.partOpen) {
        this.#emit('response.reasoning_summary_text.done', { ...this.#ids(item), summary_index: 0, text: item.text });
        this.#emit('response.reasoning_summary_part.done', { ...this.#ids(item), summary_index: 0, part: summaryPart(item.text) });
      }
      done = reasoningItem(item.id, item);
    } else {
      this.#emit('response.function_call_arguments.done', { ...this.#ids(item), arguments: item.text, name: item.name });
      done = functionCallItem(item.id, { id: item.callId, name: item.name, arguments: item.text }, 'completed');
    }
    this.#emit('response.output_item.done', { output_index: item.outputIndex, item: done });
    this.#output.push(done);
  }

  #ids(item: OpenItem): JsonObject {
    return { item_id: item.id, output_index: item.outputIndex };
  }
}
