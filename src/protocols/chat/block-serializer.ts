// Turns Chat's parallel streams of content, reasoning and tool-call fragments (keyed by tool `index`) into
// the IR's one-block-at-a-time grammar. A tool call stays open until another call starts AND its
// arguments parse as complete JSON; fragments of a call that cannot be opened yet are buffered, so an
// upstream that interleaves two calls still yields two whole, ordered blocks.
import type { IRStreamEvent } from '../ir.ts';
import { toolCallId } from './util.ts';

interface ToolSlot {
  id: string;
  name: string;
  args: string;
  /** Characters of `args` already emitted. */
  emitted: number;
  state: 'pending' | 'open' | 'closed';
}

type OpenBlock = { kind: 'text' | 'reasoning'; index: number } | { kind: 'tool'; index: number; slot: ToolSlot };

export interface ToolFragment {
  index: number;
  id?: string;
  name?: string;
  arguments?: string;
}

function isCompleteJson(text: string): boolean {
  if (text.trim() === '') return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

export class BlockSerializer {
  #nextIndex = 0;
  #open: OpenBlock | undefined;
  readonly #slots = new Map<number, ToolSlot>();
  readonly #pending: ToolSlot[] = [];

  get sawToolCall(): boolean {
    return this.#slots.size > 0;
  }

  /** Text or reasoning fragment. */
  content(kind: 'text' | 'reasoning', text: string, out: IRStreamEvent[]): void {
    if (this.#open?.kind !== kind) {
      this.#close(out);
      this.#open = { kind, index: this.#nextIndex++ };
      out.push({ type: 'block_start', index: this.#open.index, block: { type: kind } });
    }
    out.push({ type: 'block_delta', index: this.#open.index, delta: { type: kind, text } });
  }

  /** One `delta.tool_calls[]` entry. Returns false when it continues a call that was already closed. */
  tool(fragment: ToolFragment, out: IRStreamEvent[]): boolean {
    let slot = this.#slots.get(fragment.index);
    if (!slot) {
      slot = { id: fragment.id || toolCallId(), name: fragment.name ?? '', args: '', emitted: 0, state: 'pending' };
      this.#slots.set(fragment.index, slot);
      this.#pending.push(slot);
    } else if (slot.state === 'pending' && slot.name === '' && fragment.name) {
      slot.name = fragment.name;
    }
    const args = fragment.arguments ?? '';
    if (slot.state === 'closed' && args.trim() !== '') return false;
    if (slot.state !== 'closed') slot.args += args;
    this.#advance(out);
    return true;
  }

  /** Closes the open block and emits every buffered call (end of the choice). */
  flush(out: IRStreamEvent[]): void {
    this.#close(out);
    for (let slot = this.#pending.shift(); slot; slot = this.#pending.shift()) {
      this.#openTool(slot, out);
      this.#close(out);
    }
  }

  #advance(out: IRStreamEvent[]): void {
    for (;;) {
      const open = this.#open;
      if (open?.kind === 'tool') {
        this.#emitArgs(open.index, open.slot, out);
        if (this.#pending.length === 0 || !isCompleteJson(open.slot.args)) return;
        this.#close(out);
      }
      const next = this.#pending.shift();
      if (!next) return;
      this.#close(out);
      this.#openTool(next, out);
    }
  }

  #openTool(slot: ToolSlot, out: IRStreamEvent[]): void {
    const index = this.#nextIndex++;
    slot.state = 'open';
    this.#open = { kind: 'tool', index, slot };
    out.push({ type: 'block_start', index, block: { type: 'tool_call', id: slot.id, name: slot.name } });
    this.#emitArgs(index, slot, out);
  }

  #emitArgs(index: number, slot: ToolSlot, out: IRStreamEvent[]): void {
    if (slot.emitted >= slot.args.length) return;
    out.push({ type: 'block_delta', index, delta: { type: 'arguments', partialJson: slot.args.slice(slot.emitted) } });
    slot.emitted = slot.args.length;
  }

  #close(out: IRStreamEvent[]): void {
    if (!this.#open) return;
    if (this.#open.kind === 'tool') this.#open.slot.state = 'closed';
    out.push({ type: 'block_stop', index: this.#open.index });
    this.#open = undefined;
  }
}
