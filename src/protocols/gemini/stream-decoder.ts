// Gemini stream chunks (SSE `data:` lines or JSON-array elements) → IR stream events (protocols.md §4.6).
import type { SseFrame, StreamDecoder } from '../codec.ts';
import type { IRError, IRStopReason, IRStreamBlockStart, IRStreamEvent, Vendor } from '../ir.ts';
import { decodeStreamError } from './errors.ts';
import { stopReasonFromGemini, usageFromGemini } from './mapping.ts';
import { upstreamIds } from './response.ts';
import { isRecord } from '../shared/json.ts';
import type { JsonObject } from '../shared/json.ts';
import { field, stringField } from './util.ts';

type TextKind = 'text' | 'reasoning';
type Signature = { vendor: Vendor; value: string };
type ToolCallStart = Extract<IRStreamBlockStart, { type: 'tool_call' }>;

const EARLY_END: IRError = { status: 502, kind: 'server_error', message: 'upstream stream ended early' };

export class GeminiStreamDecoder implements StreamDecoder {
  private started = false;
  private open: { index: number; kind: TextKind } | undefined;
  private nextIndex = 0;
  private sawFunctionCall = false;
  private finished = false;
  private failed = false;

  push(frame: SseFrame): IRStreamEvent[] {
    if (this.failed) return [];
    let data: unknown;
    try {
      data = JSON.parse(frame.data);
    } catch {
      return this.fail({ status: 502, kind: 'server_error', message: 'upstream sent an invalid stream chunk' });
    }
    const chunks = Array.isArray(data) ? data : [data];
    return chunks.flatMap((chunk) => (isRecord(chunk) && !this.failed ? this.onChunk(chunk) : []));
  }

  end(): IRStreamEvent[] {
    if (this.failed || this.finished) return [];
    return this.fail(EARLY_END);
  }

  private fail(error: IRError): IRStreamEvent[] {
    this.failed = true;
    return [{ type: 'error', error }];
  }

  private onChunk(chunk: JsonObject): IRStreamEvent[] {
    if (isRecord(chunk.error)) return this.fail(decodeStreamError(chunk.error));
    const events: IRStreamEvent[] = [];
    const first = !this.started;
    if (first) events.push(this.startEvent(chunk));
    const candidates = field(chunk, 'candidates');
    const candidate = Array.isArray(candidates) && isRecord(candidates[0]) ? candidates[0] : undefined;
    if (candidate !== undefined && !this.finished) {
      const content = field(candidate, 'content');
      const parts = isRecord(content) ? field(content, 'parts') : undefined;
      if (Array.isArray(parts)) for (const part of parts) if (isRecord(part)) events.push(...this.onPart(part));
    }
    const usage = field(chunk, 'usageMetadata');
    if (isRecord(usage) && !first) events.push({ type: 'usage', usage: usageFromGemini(usage) });
    if (this.finished) return events;
    const reason = candidate === undefined ? undefined : stringField(candidate, 'finishReason');
    if (reason !== undefined) events.push(...this.finish(stopReasonFromGemini(reason, this.sawFunctionCall)));
    else if (candidate === undefined && isRecord(field(chunk, 'promptFeedback'))) events.push(...this.finish('content_filter'));
    return events;
  }

  private startEvent(chunk: JsonObject): IRStreamEvent {
    this.started = true;
    const start: IRStreamEvent & { type: 'start' } = { type: 'start' };
    const id = stringField(chunk, 'responseId');
    if (id !== undefined) start.id = id;
    const model = stringField(chunk, 'modelVersion');
    if (model !== undefined) start.model = model;
    const usage = field(chunk, 'usageMetadata');
    if (isRecord(usage)) start.usage = usageFromGemini(usage);
    return start;
  }

  private finish(stopReason: IRStopReason): IRStreamEvent[] {
    this.finished = true;
    return [...this.close(), { type: 'finish', stopReason }];
  }

  private onPart(part: JsonObject): IRStreamEvent[] {
    const value = stringField(part, 'thoughtSignature');
    const signature: Signature | undefined = value === undefined || value === '' ? undefined : { vendor: 'gemini', value };
    const call = field(part, 'functionCall');
    if (isRecord(call)) return this.onFunctionCall(call, signature);
    const text = stringField(part, 'text') ?? '';
    const events: IRStreamEvent[] = [];
    if (field(part, 'thought') === true) {
      if (text !== '' || signature !== undefined) events.push(...this.ensure('reasoning'));
      if (text !== '') events.push({ type: 'block_delta', index: this.openIndex(), delta: { type: 'reasoning', text } });
      if (signature !== undefined) events.push({ type: 'block_delta', index: this.openIndex(), delta: { type: 'signature', signature } });
      return events;
    }
    if (signature !== undefined) {
      // A signature on the answer text belongs to the thoughts before it: sign the open thought block, or an empty one.
      events.push(...this.ensure('reasoning'));
      events.push({ type: 'block_delta', index: this.openIndex(), delta: { type: 'signature', signature } }, ...this.close());
    }
    if (text !== '') {
      events.push(...this.ensure('text'), { type: 'block_delta', index: this.openIndex(), delta: { type: 'text', text } });
    }
    return events;
  }

  private onFunctionCall(call: JsonObject, signature: Signature | undefined): IRStreamEvent[] {
    this.sawFunctionCall = true;
    const events = this.close();
    const index = this.nextIndex++;
    const block: ToolCallStart = { type: 'tool_call', id: upstreamIds.call(stringField(call, 'id'), index), name: stringField(call, 'name') ?? '' };
    if (signature !== undefined) block.signature = signature;
    const args = field(call, 'args');
    const partialJson = JSON.stringify(isRecord(args) ? args : {});
    events.push(
      { type: 'block_start', index, block },
      { type: 'block_delta', index, delta: { type: 'arguments', partialJson } },
      { type: 'block_stop', index },
    );
    return events;
  }

  private ensure(kind: TextKind): IRStreamEvent[] {
    if (this.open?.kind === kind) return [];
    const events = this.close();
    const index = this.nextIndex++;
    this.open = { index, kind };
    events.push({ type: 'block_start', index, block: { type: kind } });
    return events;
  }

  private openIndex(): number {
    return this.open?.index ?? -1;
  }

  private close(): IRStreamEvent[] {
    const open = this.open;
    if (open === undefined) return [];
    this.open = undefined;
    return [{ type: 'block_stop', index: open.index }];
  }
}
