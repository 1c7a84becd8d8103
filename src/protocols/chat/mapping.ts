// Chat finish_reason and usage ⇄ IR (protocols.md §8.12, §8.13).
// IR usage: inputTokens includes cached tokens, outputTokens includes reasoning tokens — the OpenAI
// convention, so the numbers map one to one.
import type { IRStopReason, IRUsage } from '../ir.ts';
import { isRecord } from '../shared/json.ts';
import type { JsonObject } from '../shared/json.ts';

export type ChatFinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter';

export function finishReasonFor(stop: IRStopReason): ChatFinishReason {
  switch (stop) {
    case 'end_turn':
    case 'stop_sequence':
    case 'pause_turn':
      return 'stop';
    case 'max_tokens':
    case 'context_window_exceeded':
      return 'length';
    case 'tool_use':
      return 'tool_calls';
    case 'content_filter':
      return 'content_filter';
  }
}

/** Upstream finish_reason → IR; unknown values count as a natural stop. */
export function stopReasonFor(finish: unknown): IRStopReason {
  switch (finish) {
    case 'length':
      return 'max_tokens';
    case 'tool_calls':
    case 'function_call':
      return 'tool_use';
    case 'content_filter':
      return 'content_filter';
    default:
      return 'end_turn';
  }
}

function count(obj: JsonObject | undefined, key: string): number | undefined {
  const value = obj?.[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

function positive(value: number | undefined): number | undefined {
  return value !== undefined && value > 0 ? value : undefined;
}

/** Chat `usage` → IR usage; zero detail counts are omitted. */
export function decodeUsage(raw: unknown): IRUsage | undefined {
  if (!isRecord(raw)) return undefined;
  const prompt = isRecord(raw['prompt_tokens_details']) ? raw['prompt_tokens_details'] : undefined;
  const completion = isRecord(raw['completion_tokens_details']) ? raw['completion_tokens_details'] : undefined;
  const usage: IRUsage = { inputTokens: count(raw, 'prompt_tokens') ?? 0, outputTokens: count(raw, 'completion_tokens') ?? 0 };
  const cacheRead = positive(count(prompt, 'cached_tokens'));
  const cacheWrite = positive(count(prompt, 'cache_write_tokens'));
  const reasoning = positive(count(completion, 'reasoning_tokens'));
  if (cacheRead !== undefined) usage.cacheReadTokens = cacheRead;
  if (cacheWrite !== undefined) usage.cacheWriteTokens = cacheWrite;
  if (reasoning !== undefined) usage.reasoningTokens = reasoning;
  return usage;
}

export function encodeUsage(usage: Partial<IRUsage> | undefined): JsonObject {
  const input = usage?.inputTokens ?? 0;
  const output = usage?.outputTokens ?? 0;
  const promptDetails: JsonObject = { cached_tokens: usage?.cacheReadTokens ?? 0, audio_tokens: 0 };
  if (usage?.cacheWriteTokens !== undefined) promptDetails['cache_write_tokens'] = usage.cacheWriteTokens;
  return {
    prompt_tokens: input,
    completion_tokens: output,
    total_tokens: input + output,
    prompt_tokens_details: promptDetails,
    completion_tokens_details: {
      reasoning_tokens: usage?.reasoningTokens ?? 0,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
}
