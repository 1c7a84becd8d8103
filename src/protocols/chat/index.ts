// OpenAI Chat Completions codec (protocols.md §1): the client protocol of most tools and the request format
// the gateway uses for every OpenAI-type upstream.
import type { Codec } from '../codec.ts';
import { decodeOpenAIError } from './errors.ts';
import { decodeChatRequest } from './request-decode.ts';
import { encodeChatRequest } from './request-encode.ts';
import { decodeChatResponse, encodeChatResponse } from './response.ts';
import { createChatStreamDecoder } from './stream-decoder.ts';
import { createChatStreamEncoder } from './stream-encoder.ts';

export const chatCodec: Codec = {
  protocol: 'chat',
  decodeRequest: decodeChatRequest,
  encodeRequest: encodeChatRequest,
  decodeResponse: decodeChatResponse,
  encodeResponse: encodeChatResponse,
  createStreamDecoder: createChatStreamDecoder,
  createStreamEncoder: createChatStreamEncoder,
  decodeError: decodeOpenAIError,
};
