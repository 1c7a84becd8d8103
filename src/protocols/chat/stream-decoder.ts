// Upstream Chat Completions SSE → IR stream events (protocols.md §1.4). Only choice 0 is carried.
// The finish_reason chunk is held: with `include_usage` the usage chunk comes AFTER it, and the IR wants
// `usage` before the terminal `finish`, so `finish` goes out when usage or `[DONE]` arrives.
import type { SseFrame, StreamDecoder } from '../codec.ts';
import type { IRError, IRStopReason, IRStreamEvent } from '../ir.ts';
import { BlockSerializer } from './block-serializer.ts';
import type { ToolFragment } from './block-serializer.ts';
import { decodeOpenAIError } from './errors.ts';
import { decodeUsage, stopReasonFor } from './mapping.ts';
import { isRecord } from '../shared/json.ts';
import type { JsonObject } from '../shared/json.ts';

type Phase = 'streaming' | 'finishing' | 'done';

function cutError(message: string): IRError {
  return { status: 502, kind: 'server_error', message };
}

function toolFragment(raw: unknown, fallbackIndex: number): ToolFragment | undefined {
  if (!isRecord(raw)) return undefined;
  const fn = isRecord(raw['function']) ? raw['function'] : {};
  const fragment: ToolFragment = { index: typeof raw['index'] === 'number' ? raw['index'] : fallbackIndex };
  if (typeof raw['id'] === 'string' && raw['id'] !== '') fragment.id = raw['id'];
  if (typeof fn['name'] === 'string' && fn['name'] !== '') fragment.name = fn['name'];
  if (typeof fn['arguments'] === 'string') fragment.arguments = fn['arguments'];
  else if (isRecord(fn['arguments'])) fragment.arguments = JSON.stringify(fn['arguments']);
  return fragment;
}

class ChatStreamDecoder implements StreamDecoder {
  #phase: Phase = 'streaming';
  #started = false;
  #stop: IRStopReason = 'end_turn';
  readonly #blocks = new BlockSerializer();

  push(frame: SseFrame): IRStreamEvent[] {
    if (this.#phase === 'done') return [];
    const data = frame.data.trim();
    if (data === '[DONE]') return this.#onDone();
    let chunk: unknown;
    try {
      chunk = JSON.parse(data);
    } catch {
      return this.#fail(cutError('Upstream sent malformed JSON in its event stream'));
    }
    if (!isRecord(chunk)) return [];
    if (frame.event === 'error' || chunk['error'] !== undefined) return this.#fail(decodeOpenAIError(0, chunk));
    return this.#onChunk(chunk);
  }

  end(): IRStreamEvent[] {
    if (this.#phase === 'finishing') return this.#finish([]);
    if (this.#phase === 'done') return [];
    return this.#fail(cutError('The upstream stream was cut before it finished (no finish_reason or [DONE])'));
  }

  #onChunk(chunk: JsonObject): IRStreamEvent[] {
    const out: IRStreamEvent[] = [];
    if (!this.#started) {
      this.#started = true;
      const start: IRStreamEvent = { type: 'start' };
      if (typeof chunk['id'] === 'string') start.id = chunk['id'];
      if (typeof chunk['model'] === 'string') start.model = chunk['model'];
      out.push(start);
    }
    const choices = Array.isArray(chunk['choices']) ? chunk['choices'] : [];
    const choice = choices.find((c) => isRecord(c) && (c['index'] ?? 0) === 0);
    if (isRecord(choice) && this.#phase === 'streaming') {
      if (isRecord(choice['delta']) && !this.#onDelta(choice['delta'], out)) return out;
      const finish = choice['finish_reason'];
      if (finish !== null && finish !== undefined) this.#onFinishReason(finish, out);
    }
    const usage = decodeUsage(chunk['usage']);
    if (usage) {
      out.push({ type: 'usage', usage });
      if (this.#phase === 'finishing') this.#finish(out);
    }
    return out;
  }

  /** Returns false when the stream became unusable (an error event was added). */
  #onDelta(delta: JsonObject, out: IRStreamEvent[]): boolean {
    const reasoning = delta['reasoning_content'] ?? delta['reasoning'];
    if (typeof reasoning === 'string' && reasoning !== '') this.#blocks.content('reasoning', reasoning, out);
    if (typeof delta['content'] === 'string' && delta['content'] !== '') this.#blocks.content('text', delta['content'], out);
    if (typeof delta['refusal'] === 'string' && delta['refusal'] !== '') this.#blocks.content('text', delta['refusal'], out);
    const calls = Array.isArray(delta['tool_calls']) ? delta['tool_calls'] : [];
    for (const [i, raw] of calls.entries()) {
      const fragment = toolFragment(raw, i);
      if (fragment && !this.#blocks.tool(fragment, out)) {
        out.push(...this.#fail(cutError(`Upstream sent arguments for tool call index ${fragment.index} after it had finished`)));
        return false;
      }
    }
    return true;
  }

  #onFinishReason(finish: unknown, out: IRStreamEvent[]): void {
    this.#stop = stopReasonFor(finish);
    if (this.#stop === 'end_turn' && this.#blocks.sawToolCall) this.#stop = 'tool_use';
    this.#blocks.flush(out);
    this.#phase = 'finishing';
  }

  #onDone(): IRStreamEvent[] {
    if (this.#phase === 'finishing') return this.#finish([]);
    if (!this.#started) return this.#fail(cutError('The upstream stream ended before sending any chunk'));
    // [DONE] without a finish_reason: the upstream said the stream is complete, so finish it.
    const out: IRStreamEvent[] = [];
    this.#onFinishReason('stop', out);
    return this.#finish(out);
  }

  #finish(out: IRStreamEvent[]): IRStreamEvent[] {
    out.push({ type: 'finish', stopReason: this.#stop });
    this.#phase = 'done';
    return out;
  }

  #fail(error: IRError): IRStreamEvent[] {
    this.#phase = 'done';
    return [{ type: 'error', error }];
  }
}

export function createChatStreamDecoder(): StreamDecoder {
  return new ChatStreamDecoder();
}
