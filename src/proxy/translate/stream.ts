// The streamed half of the translated path: upstream SSE → eventsource-parser → upstream codec's stream
// decoder → IR events → client codec's stream encoder → client, one network chunk at a time (never the
// whole stream). Once output has started, any failure ends the client stream with its protocol's own
// in-band error; before that, it becomes an ordinary HTTP error in the client's shape.
import type { Response } from 'express';
import { createParser } from 'eventsource-parser';
import type { Logger } from 'winston';
import type { RequestContext } from '../../core/context.ts';
import type { SseFrame, StreamDecoder, StreamEncoder } from '../../protocols/codec.ts';
import { statusForProtocol } from '../../protocols/error-shapes.ts';
import type { IRError, IRStreamEvent, IRUsage } from '../../protocols/ir.ts';
import { sendError } from '../respond.ts';
import { ClientSink } from './client-sink.ts';
import { tokenUsage } from './usage.ts';

export interface StreamPlan {
  decoder: StreamDecoder;
  encoder: StreamEncoder;
  /** `text/event-stream`, or `application/json` for Gemini's JSON-array stream. */
  contentType: string;
  /** Sees every IR event before it is encoded (thought-signature recording). */
  observe?: (event: IRStreamEvent) => void;
}

const BROKEN_UPSTREAM: IRError = { status: 502, kind: 'server_error', message: 'The connection to the upstream provider broke mid-stream.' };
const UNTRANSLATABLE: IRError = { status: 502, kind: 'server_error', message: 'The gateway could not translate the upstream stream.' };

class StreamRelay {
  readonly #ctx: RequestContext;
  readonly #res: Response;
  readonly #plan: StreamPlan;
  readonly #logger: Logger;
  readonly #sink: ClientSink;
  readonly #usage: Partial<IRUsage> = {};
  #finished = false;
  #closed = false;

  constructor(ctx: RequestContext, res: Response, plan: StreamPlan, logger: Logger) {
    this.#ctx = ctx;
    this.#res = res;
    this.#plan = plan;
    this.#logger = logger;
    this.#sink = new ClientSink(ctx, res, plan.contentType);
  }

  async run(body: AsyncIterable<Uint8Array>): Promise<void> {
    const frames: SseFrame[] = [];
    const parser = createParser({ onEvent: (m) => frames.push(m.event === undefined ? { data: m.data } : { event: m.event, data: m.data }) });
    const text = new TextDecoder();
    const decode = (): IRStreamEvent[] => frames.splice(0).flatMap((frame) => this.#plan.decoder.push(frame));
    try {
      for await (const chunk of body) {
        parser.feed(text.decode(chunk, { stream: true }));
        if (!(await this.#emit(decode()))) return;
      }
      parser.feed(text.decode());
      if (!(await this.#emit([...decode(), ...this.#plan.decoder.end()]))) return;
      await this.#close();
    } catch (error) {
      if (this.#sink.gone) return;
      this.#logger.warn('upstream stream failed', { requestId: this.#ctx.id, error: String(error) });
      // A connection that breaks after the upstream already finished loses nothing.
      if (this.#finished) await this.#close();
      else await this.#emit([{ type: 'error', error: BROKEN_UPSTREAM }]);
    }
  }

  /** Encodes and writes one batch; false when the stream is over (error sent, or client gone). */
  async #emit(events: IRStreamEvent[]): Promise<boolean> {
    let out = '';
    for (const event of events) {
      this.#plan.observe?.(event);
      this.#track(event);
      if (event.type === 'error' && !this.#sink.started && out === '') {
        this.#failBeforeOutput(event.error);
        return false;
      }
      const encoded = this.#encode(event);
      out += encoded.text;
      if (encoded.final) {
        await this.#sink.write(out);
        await this.#close();
        return false;
      }
    }
    return this.#sink.write(out);
  }

  #encode(event: IRStreamEvent): { text: string; final: boolean } {
    try {
      return { text: this.#plan.encoder.push(event), final: event.type === 'error' };
    } catch (error) {
      this.#logger.error('stream translation failed', { requestId: this.#ctx.id, event: event.type, error: String(error) });
      try {
        return { text: this.#plan.encoder.push({ type: 'error', error: UNTRANSLATABLE }), final: true };
      } catch {
        this.#res.destroy();
        return { text: '', final: true };
      }
    }
  }

  #track(event: IRStreamEvent): void {
    if (event.type === 'usage' || (event.type === 'start' && event.usage)) Object.assign(this.#usage, event.usage);
    if (event.type === 'finish') this.#finished = true;
    if (event.type === 'error') this.#ctx.logFields.streamError = event.error.message;
  }

  #failBeforeOutput(error: IRError): void {
    this.#ctx.response = { status: statusForProtocol(this.#ctx.protocol, error.status), headers: this.#res.getHeaders(), streamed: false };
    sendError(this.#res, this.#ctx.protocol, error, this.#ctx.id);
  }

  async #close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#sink.write(this.#plan.encoder.end());
    const usage = tokenUsage(this.#usage);
    if (this.#ctx.response && usage) this.#ctx.response.usage = usage;
    this.#sink.end();
  }
}

/** Relays one upstream SSE body; leaving early (error, client gone) ends the iteration, which closes the upstream. */
export function relayStream(ctx: RequestContext, res: Response, body: AsyncIterable<Uint8Array>, plan: StreamPlan, logger: Logger): Promise<void> {
  return new StreamRelay(ctx, res, plan, logger).run(body);
}
