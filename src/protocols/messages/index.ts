// Anthropic Messages codec (protocols.md §3): request, response, stream and error ⇄ IR.
import type { Codec } from '../codec.ts';
import { decodeMessagesError } from './errors.ts';
import { decodeMessagesRequest } from './request-decode.ts';
import { encodeMessagesRequest } from './request-encode.ts';
import { decodeMessagesResponse, encodeMessagesResponse } from './response.ts';
import { MessagesStreamDecoder } from './stream-decoder.ts';
import { MessagesStreamEncoder } from './stream-encoder.ts';

export const messagesCodec: Codec = {
  protocol: 'messages',
  decodeRequest: decodeMessagesRequest,
  encodeRequest: encodeMessagesRequest,
  decodeResponse: decodeMessagesResponse,
  encodeResponse: encodeMessagesResponse,
  createStreamDecoder: () => new MessagesStreamDecoder(),
  createStreamEncoder: (ctx) => new MessagesStreamEncoder(ctx),
  decodeError: decodeMessagesError,
};

export { EFFORT_BUDGET as ANTHROPIC_EFFORT_BUDGET } from './reasoning.ts';
