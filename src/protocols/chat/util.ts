// Chat id conventions; the JSON guards and validators the codec uses live in ../shared/.
import { randomHex } from '../shared/ids.ts';

/** Chat ids are `chatcmpl-…`: keep an upstream id already in that form, otherwise mint one. */
export function chatCompletionId(upstreamId: string | undefined): string {
  return upstreamId?.startsWith('chatcmpl-') ? upstreamId : `chatcmpl-${randomHex(29)}`;
}

/** Tool-call id for upstreams that send none. */
export function toolCallId(): string {
  return `call_${randomHex(24)}`;
}
