// OpenAI Responses codec (protocols.md §2): the client protocol of Codex and newer OpenAI SDK code. An
// upstream is called with Responses only when it is marked Responses-capable (otherwise Chat Completions).
import type { Codec } from '../codec.ts';
import { decodeResponsesError } from './errors.ts';
import { decodeResponsesRequest } from './request-decode.ts';
import { encodeResponsesRequest } from './request-encode.ts';
import { decodeResponsesResponse, encodeResponsesResponse } from './response.ts';
import { createResponsesStreamDecoder } from './stream-decoder.ts';
import { createResponsesStreamEncoder } from './stream-encoder.ts';

export const responsesCodec: Codec = {
  protocol: 'responses',
  decodeRequest: decodeResponsesRequest,
  encodeRequest: encodeResponsesRequest,
  decodeResponse: decodeResponsesResponse,
  encodeResponse: encodeResponsesResponse,
  createStreamDecoder: createResponsesStreamDecoder,
  createStreamEncoder: createResponsesStreamEncoder,
  decodeError: decodeResponsesError,
};
