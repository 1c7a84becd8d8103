// Gemini thought signatures across non-Gemini clients. Gemini 3 rejects a history whose function-call parts
// lack the `thoughtSignature` it returned; Chat/Responses/Messages clients have nowhere to keep it, so the
// gateway remembers tool-call id → signature (bounded LRU, one per gateway instance) and puts it back on
// the next turn. A call the gateway saw WITHOUT a signature (Gemini signs only the first of parallel calls)
// is remembered as unsigned and stays so; a call it never saw gets Google's documented bypass sentinel.
// Signatures of other vendors are never copied to Gemini: only Gemini-vendor values are stored.
import type { IRRequest, IRResponse, IRStreamEvent, Vendor } from '../../protocols/ir.ts';

type MaybeSignature = { vendor: Vendor; value: string } | undefined;

export const SKIP_SIGNATURE_SENTINEL = 'skip_thought_signature_validator';

export class SignatureCache {
  readonly #max: number;
  readonly #entries = new Map<string, string>();

  constructor(maxEntries: number) {
    this.#max = Math.max(1, maxEntries);
  }

  get size(): number {
    return this.#entries.size;
  }

  /** `''` records a call Gemini returned unsigned. */
  remember(callId: string, signature: string): void {
    this.#entries.delete(callId);
    this.#entries.set(callId, signature);
    if (this.#entries.size > this.#max) {
      const oldest = this.#entries.keys().next();
      if (!oldest.done) this.#entries.delete(oldest.value);
    }
  }

  recall(callId: string): string | undefined {
    const value = this.#entries.get(callId);
    if (value !== undefined) {
      this.#entries.delete(callId);
      this.#entries.set(callId, value);
    }
    return value;
  }
}

/** Before encoding for a Gemini upstream: every assistant tool call gets its Gemini signature back. */
export function restoreSignatures(request: IRRequest, cache: SignatureCache): void {
  for (const message of request.messages) {
    if (message.role !== 'assistant') continue;
    for (const block of message.content) {
      if (block.type !== 'tool_call' || block.signature?.vendor === 'gemini') continue;
      const known = cache.recall(block.id);
      if (known === '') delete block.signature;
      else block.signature = { vendor: 'gemini', value: known ?? SKIP_SIGNATURE_SENTINEL };
    }
  }
}

function geminiValue(signature: MaybeSignature): string {
  return signature?.vendor === 'gemini' ? signature.value : '';
}

/** After a Gemini upstream's JSON answer: remember each tool call's signature (or that it had none). */
export function recordResponseSignatures(response: IRResponse, cache: SignatureCache): void {
  for (const block of response.content) if (block.type === 'tool_call') cache.remember(block.id, geminiValue(block.signature));
}

/** Watches a Gemini upstream's stream events and stores each tool call's signature under its id. */
export function createSignatureRecorder(cache: SignatureCache): (event: IRStreamEvent) => void {
  const openCalls = new Map<number, string>();
  return (event) => {
    if (event.type === 'block_start' && event.block.type === 'tool_call') {
      openCalls.set(event.index, event.block.id);
      cache.remember(event.block.id, geminiValue(event.block.signature));
    } else if (event.type === 'block_delta' && event.delta.type === 'signature' && event.delta.signature.vendor === 'gemini') {
      const id = openCalls.get(event.index);
      if (id !== undefined) cache.remember(id, event.delta.signature.value);
    } else if (event.type === 'block_stop') {
      openCalls.delete(event.index);
    }
  };
}
