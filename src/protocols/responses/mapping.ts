// Responses status and usage ⇄ IR (protocols.md §2.4, §8.12, §8.13). Usage numbers map one to one: input
// includes cached tokens and output includes reasoning tokens, as in the IR.
import type { IRStopReason, IRUsage } from '../ir.ts';
import { isRecord } from '../shared/json.ts';
import type { JsonObject } from '../shared/json.ts';

export interface TerminalStatus {
  status: 'completed' | 'incomplete';
  incompleteDetails: { reason: 'max_output_tokens' | 'content_filter' } | null;
}

export function statusFor(stop: IRStopReason): TerminalStatus {
  switch (stop) {
    case 'max_tokens':
    case 'context_window_exceeded':
      return { status: 'incomplete', incompleteDetails: { reason: 'max_output_tokens' } };
    case 'content_filter':
      return { status: 'incomplete', incompleteDetails: { reason: 'content_filter' } };
    default:
      return { status: 'completed', incompleteDetails: null };
  }
}

/** A terminal response's status (+ incomplete reason) → IR stop reason; function calls mean tool_use. */
export function stopReasonFor(status: unknown, incompleteDetails: unknown, hasCalls: boolean): IRStopReason {
  if (status === 'incomplete') {
    const reason = isRecord(incompleteDetails) ? incompleteDetails['reason'] : undefined;
    return reason === 'content_filter' ? 'content_filter' : 'max_tokens';
  }
  return hasCalls ? 'tool_use' : 'end_turn';
}

function count(obj: unknown, key: string): number | undefined {
  const value = isRecord(obj) ? obj[key] : undefined;
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

export function decodeUsage(raw: unknown): IRUsage | undefined {
  if (!isRecord(raw)) return undefined;
  const usage: IRUsage = { inputTokens: count(raw, 'input_tokens') ?? 0, outputTokens: count(raw, 'output_tokens') ?? 0 };
  const cacheRead = count(raw['input_tokens_details'], 'cached_tokens');
  const cacheWrite = count(raw['input_tokens_details'], 'cache_write_tokens');
  const reasoning = count(raw['output_tokens_details'], 'reasoning_tokens');
  if (cacheRead) usage.cacheReadTokens = cacheRead;
  if (cacheWrite) usage.cacheWriteTokens = cacheWrite;
  if (reasoning) usage.reasoningTokens = reasoning;
  return usage;
}

export function encodeUsage(usage: Partial<IRUsage>): JsonObject {
  const input = usage.inputTokens ?? 0;
  const output = usage.outputTokens ?? 0;
  const inputDetails: JsonObject = { cached_tokens: usage.cacheReadTokens ?? 0 };
  if (usage.cacheWriteTokens !== undefined) inputDetails['cache_write_tokens'] = usage.cacheWriteTokens;
  return {
    input_tokens: input,
    input_tokens_details: inputDetails,
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: usage.reasoningTokens ?? 0 },
    total_tokens: input + output,
  };
}
