// IR stream events → Responses SSE for a Responses client (protocols.md §2.5, §8.14 "P2 emitter").
// A state machine: init → streaming → finishing → terminal. Each IR block is one output item, opened and
// closed in order; `sequence_number` counts every event from 0. `finish` only records the stop reason:
// usage may still follow it (Chat-style upstreams send it last), so end() writes the terminal
// `response.completed`/`response.incomplete` carrying the full output and usage. Anything out of order throws
// instead of producing an event a strict client would reject.
import type { ResponseEncodeContext, StreamEncoder } from '../codec.ts';
import type { IRError, IRStopReason, IRStreamDelta, IRStreamEvent, IRUsage } from '../ir.ts';
import { sseFrame } from '../sse.ts';
import { mergeUsage } from '../shared/usage.ts';
import { encodeUsage, statusFor } from './mapping.ts';
import { responseId, responseObject } from './response.ts';
import type { ResponseState } from './response.ts';
import { ItemWriter } from './stream-items.ts';
import type { Emit } from './stream-items.ts';
import { unixSeconds } from '../shared/ids.ts';
import type { JsonObject } from '../shared/json.ts';

type State = 'init' | 'streaming' | 'finishing' | 'terminal';

/** `response.failed` error codes the SDK types know; anything else is reported as server_error. */
const FAILED_CODES = new Set(['server_error', 'rate_limit_exceeded', 'invalid_prompt']);

function failedCode(error: IRError): string {
  if (error.code !== undefined && FAILED_CODES.has(error.code)) return error.code;
  if (error.kind === 'rate_limit') return 'rate_limit_exceeded';
  if (error.kind === 'invalid_request' || error.kind === 'request_too_large') return 'invalid_prompt';
  return 'server_error';
}

class ResponsesStreamEncoder implements StreamEncoder {
  #state: State = 'init';
  #sequence = 0;
  #text = '';
  #usage: Partial<IRUsage> = {};
  #lastIndex = -1;
  #stopReason: IRStopReason = 'end_turn';
  readonly #ctx: ResponseEncodeContext;
  readonly #response: ResponseState = { id: '', createdAt: unixSeconds(), status: 'in_progress', output: [], usage: null };
  readonly #items: ItemWriter;

  constructor(ctx: ResponseEncodeContext) {
    this.#ctx = ctx;
    const emit: Emit = (type, payload) => this.#emit(type, payload);
    this.#items = new ItemWriter(emit, this.#response.output);
  }

  push(event: IRStreamEvent): string {
    this.#text = '';
    switch (event.type) {
      case 'start':
        this.#expect(this.#state === 'init', event);
        if (event.usage) this.#usage = mergeUsage(this.#usage, event.usage);
        this.#begin(event.id);
        break;
      case 'block_start':
        this.#expect(this.#state === 'streaming' && !this.#items.isOpen && event.index > this.#lastIndex, event);
        this.#lastIndex = event.index;
        this.#items.open(event.index, event.block);
        break;
      case 'block_delta':
        this.#expect(this.#state === 'streaming' && this.#items.openIndex === event.index, event);
        this.#blockDelta(event.delta);
        break;
      case 'block_stop':
        this.#expect(this.#state === 'streaming' && this.#items.openIndex === event.index, event);
        this.#items.close();
        break;
      case 'usage':
        this.#expect(this.#state === 'streaming' || this.#state === 'finishing', event);
        this.#usage = mergeUsage(this.#usage, event.usage);
        break;
      case 'finish':
        this.#expect(this.#state === 'streaming' && !this.#items.isOpen, event);
        this.#state = 'finishing';
        this.#stopReason = event.stopReason;
        break;
      case 'error':
        this.#expect(this.#state !== 'terminal', event);
        this.#fail(event.error);
        break;
    }
    return this.#text;
  }

  end(): string {
    if (this.#state === 'terminal') return '';
    this.#text = '';
    if (this.#state === 'finishing') this.#complete(this.#stopReason);
    else this.#fail({ status: 502, kind: 'server_error', message: 'The upstream stream ended before the response completed' });
    return this.#text;
  }

  #begin(upstreamId: string | undefined): void {
    this.#state = 'streaming';
    this.#response.id = responseId(upstreamId);
    this.#emit('response.created', { response: this.#snapshot() });
    this.#emit('response.in_progress', { response: this.#snapshot() });
  }

  #blockDelta(delta: IRStreamDelta): void {
    if (!this.#items.delta(delta)) throw new Error(`responses stream encoder: ${delta.type} delta does not fit the open item`);
  }

  #complete(stopReason: IRStopReason): void {
    const terminal = statusFor(stopReason);
    this.#response.status = terminal.status;
    this.#response.incompleteDetails = terminal.incompleteDetails;
    this.#response.usage = encodeUsage(this.#usage);
    this.#state = 'terminal';
    this.#emit(terminal.status === 'completed' ? 'response.completed' : 'response.incomplete', { response: this.#snapshot() });
  }

  #fail(error: IRError): void {
    if (this.#state === 'init') this.#begin(undefined);
    this.#response.status = 'failed';
    this.#response.error = { code: failedCode(error), message: error.message };
    this.#response.usage = Object.keys(this.#usage).length > 0 ? encodeUsage(this.#usage) : null;
    this.#state = 'terminal';
    this.#emit('response.failed', { response: this.#snapshot() });
  }

  #snapshot(): JsonObject {
    return responseObject(this.#ctx, { ...this.#response, output: [...this.#response.output] });
  }

  #emit(type: string, payload: JsonObject): void {
    this.#text += sseFrame({ type, sequence_number: this.#sequence++, ...payload }, type);
  }

  #expect(condition: boolean, event: IRStreamEvent): void {
    if (!condition) throw new Error(`responses stream encoder: '${event.type}' event is out of order (state ${this.#state})`);
  }
}

export function createResponsesStreamEncoder(ctx: ResponseEncodeContext): StreamEncoder {
  return new ResponsesStreamEncoder(ctx);
}
