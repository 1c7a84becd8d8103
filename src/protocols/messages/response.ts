// Anthropic Messages response ⇄ IR (protocols.md §3.3).
import { CodecError } from '../codec.ts';
import type { ResponseEncodeContext } from '../codec.ts';
import type { IRBlock, IRResponse } from '../ir.ts';
import { fullUsage } from '../shared/usage.ts';
import { stopReasonFromAnthropic, stopReasonToAnthropic, usageFromAnthropic, usageToAnthropic } from './mapping.ts';
import { unixSeconds } from '../shared/ids.ts';
import { isRecord } from '../shared/json.ts';
import type { JsonObject } from '../shared/json.ts';
import { messageId, parseUpstreamArguments, stringField } from './util.ts';

export function decodeMessagesResponse(body: unknown): IRResponse {
  if (!isRecord(body) || !Array.isArray(body.content)) {
    throw new CodecError('upstream response is not an Anthropic message (no content array)', undefined, 502);
  }
  const response: IRResponse = {
    id: stringField(body, 'id') ?? '',
    model: stringField(body, 'model') ?? '',
    created: unixSeconds(),
    content: body.content.flatMap(decodeOutputBlock),
    stopReason: stopReasonFromAnthropic(body.stop_reason),
  };
  const stopSequence = stringField(body, 'stop_sequence');
  if (stopSequence !== undefined) response.stopSequence = stopSequence;
  if (isRecord(body.usage)) response.usage = fullUsage(usageFromAnthropic(body.usage));
  return response;
}

/** Server-tool blocks (server_tool_use, *_tool_result) have no IR form and are skipped. */
function decodeOutputBlock(raw: unknown): IRBlock[] {
  if (!isRecord(raw)) return [];
  switch (raw.type) {
    case 'text':
      return [{ type: 'text', text: stringField(raw, 'text') ?? '' }];
    case 'tool_use':
      return [
        {
          type: 'tool_call',
          id: stringField(raw, 'id') ?? '',
          name: stringField(raw, 'name') ?? '',
          arguments: JSON.stringify(isRecord(raw.input) ? raw.input : {}),
        },
      ];
    case 'thinking': {
      const signature = stringField(raw, 'signature');
      const text = stringField(raw, 'thinking') ?? '';
      if (signature === undefined || signature === '') return [{ type: 'reasoning', text }];
      return [{ type: 'reasoning', text, signature: { vendor: 'anthropic', value: signature } }];
    }
    case 'redacted_thinking':
      return [{ type: 'reasoning', text: '', redacted: stringField(raw, 'data') ?? '' }];
    default:
      return [];
  }
}

export function encodeMessagesResponse(response: IRResponse, ctx: ResponseEncodeContext): JsonObject {
  return {
    id: messageId(response.id),
    type: 'message',
    role: 'assistant',
    model: ctx.clientModel,
    content: response.content.flatMap((block, i) => encodeOutputBlock(block, i)),
    stop_reason: stopReasonToAnthropic(response.stopReason),
    stop_sequence: response.stopSequence ?? null,
    usage: usageToAnthropic(response.usage ?? {}),
  };
}

function encodeOutputBlock(block: IRBlock, index: number): JsonObject[] {
  switch (block.type) {
    case 'text':
      return [{ type: 'text', text: block.text }];
    case 'tool_call':
      return [{ type: 'tool_use', id: block.id, name: block.name, input: parseUpstreamArguments(block.arguments, `content[${index}].arguments`) }];
    case 'reasoning':
      if (block.redacted !== undefined) return [{ type: 'redacted_thinking', data: block.redacted }];
      return [{ type: 'thinking', thinking: block.text, signature: anthropicSignature(block.signature) }];
    default:
      return [];
  }
}

/** Another vendor's signature would be rejected by Anthropic on the next turn: hand out an empty one. */
export function anthropicSignature(signature: { vendor: string; value: string } | undefined): string {
  return signature?.vendor === 'anthropic' ? signature.value : '';
}
