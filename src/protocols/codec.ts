// The contract every protocol codec implements. Codecs are pure: no I/O, no Express, no logger.
// A stream encoder/decoder is created per response and owns that stream's state (no module-level state).
import type { ClientProtocol, IRError, IRRequest, IRResponse, IRStreamEvent } from './ir.ts';

/** One parsed SSE event (from eventsource-parser) or, for Gemini's JSON-array stream, one array element. */
export interface SseFrame {
  event?: string;
  data: string;
}

export interface RequestDecodeContext {
  /** Model taken from the URL (Gemini), overriding any body field. */
  model?: string;
  /** Streaming decided by the URL (Gemini `:streamGenerateContent`). */
  stream?: boolean;
}

export interface RequestEncodeContext {
  /** The provider's model id for this target. */
  upstreamModel: string;
  /** Default `max_tokens` when the protocol requires one and the client gave none. */
  defaultMaxTokens: number;
  /** Features the encoder could not carry and dropped: the encoder appends their names here. */
  dropped: string[];
}

export interface ResponseEncodeContext {
  /** The IR request that produced this response (for echoing settings like tools/instructions). */
  request: IRRequest;
  /** The model name the client asked for (what the client sees in `model`). */
  clientModel: string;
}

export interface StreamEncoder {
  /** Serialised SSE text (possibly empty) for one IR event; throws if the event is out of order. */
  push(event: IRStreamEvent): string;
  /** Closing text for a stream that ended normally (e.g. Chat's `[DONE]`); never throws. */
  end(): string;
}

export interface StreamDecoder {
  push(frame: SseFrame): IRStreamEvent[];
  /** Upstream closed. A stream that never finished yields an `error` event. */
  end(): IRStreamEvent[];
}

export interface Codec {
  readonly protocol: ClientProtocol;
  /** Client body → IR. Throws CodecError (400) naming the field when the body cannot be understood. */
  decodeRequest(body: unknown, ctx?: RequestDecodeContext): IRRequest;
  /** IR → upstream body. Throws CodecError (400) naming the feature when it cannot be carried at all. */
  encodeRequest(request: IRRequest, ctx: RequestEncodeContext): Record<string, unknown>;
  decodeResponse(body: unknown): IRResponse;
  encodeResponse(response: IRResponse, ctx: ResponseEncodeContext): Record<string, unknown>;
  createStreamDecoder(): StreamDecoder;
  createStreamEncoder(ctx: ResponseEncodeContext): StreamEncoder;
  /** Upstream error body (any shape) → IR error. */
  decodeError(status: number, body: unknown): IRError;
}

/** A request the codec cannot carry: becomes a 400 in the client's error shape. */
export class CodecError extends Error {
  readonly status: number;
  readonly param: string | undefined;
  constructor(message: string, param?: string, status = 400) {
    super(message);
    this.name = 'CodecError';
    this.status = status;
    this.param = param;
  }
}
