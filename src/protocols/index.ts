// The codec registry: one codec per client protocol.
import { chatCodec } from './chat/index.ts';
import type { Codec } from './codec.ts';
import { geminiCodec } from './gemini/index.ts';
import type { ClientProtocol } from './ir.ts';
import { messagesCodec } from './messages/index.ts';
import { responsesCodec } from './responses/index.ts';

const CODECS: Readonly<Record<ClientProtocol, Codec>> = {
  chat: chatCodec,
  responses: responsesCodec,
  messages: messagesCodec,
  gemini: geminiCodec,
};

export function codecFor(protocol: ClientProtocol): Codec {
  return CODECS[protocol];
}

export { CodecError } from './codec.ts';
export type { Codec, SseFrame, StreamDecoder, StreamEncoder } from './codec.ts';
