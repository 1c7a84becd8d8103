// Gemini generateContent codec (protocols.md §4): request, response, stream and error ⇄ IR.
import type { Codec, ResponseEncodeContext, StreamEncoder } from '../codec.ts';
import { decodeGeminiError } from './errors.ts';
import { decodeGeminiRequest } from './request-decode.ts';
import { encodeGeminiRequest } from './request-encode.ts';
import { decodeGeminiResponse, encodeGeminiResponse } from './response.ts';
import { GeminiStreamDecoder } from './stream-decoder.ts';
import { GeminiStreamEncoder } from './stream-encoder.ts';
import type { GeminiStreamFormat } from './stream-encoder.ts';

export type { GeminiStreamFormat };

/**
 * A stream encoder in either Gemini stream form: `sse` (`:streamGenerateContent?alt=sse`, what @google/genai uses)
 * or `json-array` (the same chunks as one progressively written JSON array, when `alt=sse` is absent).
 */
export function createGeminiStreamEncoder(ctx: ResponseEncodeContext, format: GeminiStreamFormat = 'sse'): StreamEncoder {
  return new GeminiStreamEncoder(ctx, format);
}

export const geminiCodec: Codec = {
  protocol: 'gemini',
  decodeRequest: decodeGeminiRequest,
  encodeRequest: encodeGeminiRequest,
  decodeResponse: decodeGeminiResponse,
  encodeResponse: encodeGeminiResponse,
  createStreamDecoder: () => new GeminiStreamDecoder(),
  createStreamEncoder: (ctx) => new GeminiStreamEncoder(ctx, 'sse'),
  decodeError: decodeGeminiError,
};

export { EFFORT_BUDGET as GEMINI_EFFORT_BUDGET } from './request-encode.ts';
