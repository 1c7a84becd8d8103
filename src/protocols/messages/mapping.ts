// Stop reasons (protocols.md §8.12) and usage (§8.13) ⇄ Anthropic.
import type { IRStopReason, IRUsage } from '../ir.ts';
import { isRecord } from '../shared/json.ts';
import type { JsonObject } from '../shared/json.ts';
import { numberField } from './util.ts';

const FROM_ANTHROPIC: Record<string, IRStopReason> = {
  end_turn: 'end_turn',
  max_tokens: 'max_tokens',
  stop_sequence: 'stop_sequence',
  tool_use: 'tool_use',
  pause_turn: 'pause_turn',
  refusal: 'content_filter',
  model_context_window_exceeded: 'context_window_exceeded',
};

const TO_ANTHROPIC: Record<IRStopReason, string> = {
  end_turn: 'end_turn',
  max_tokens: 'max_tokens',
  stop_sequence: 'stop_sequence',
  tool_use: 'tool_use',
  pause_turn: 'pause_turn',
  content_filter: 'refusal',
  context_window_exceeded: 'model_context_window_exceeded',
};

export function stopReasonFromAnthropic(value: unknown): IRStopReason {
  return typeof value === 'string' ? (FROM_ANTHROPIC[value] ?? 'end_turn') : 'end_turn';
}

export function stopReasonToAnthropic(reason: IRStopReason): string {
  return TO_ANTHROPIC[reason];
}

export interface CacheCounts {
  read?: number;
  write?: number;
}

/**
 * Anthropic usage → IR usage (only the fields present). Anthropic `input_tokens` EXCLUDES the cache,
 * IR `inputTokens` includes it; `fallbackCache` supplies cache counts a later stream event leaves out.
 */
export function usageFromAnthropic(raw: unknown, fallbackCache: CacheCounts = {}): Partial<IRUsage> {
  if (!isRecord(raw)) return {};
  const out: Partial<IRUsage> = {};
  const cacheRead = numberField(raw, 'cache_read_input_tokens');
  const cacheWrite = numberField(raw, 'cache_creation_input_tokens');
  const input = numberField(raw, 'input_tokens');
  if (input !== undefined) out.inputTokens = input + (cacheRead ?? fallbackCache.read ?? 0) + (cacheWrite ?? fallbackCache.write ?? 0);
  const output = numberField(raw, 'output_tokens');
  if (output !== undefined) out.outputTokens = output;
  if (cacheRead !== undefined) out.cacheReadTokens = cacheRead;
  if (cacheWrite !== undefined) out.cacheWriteTokens = cacheWrite;
  const details = raw.output_tokens_details;
  const thinking = isRecord(details) ? numberField(details, 'thinking_tokens') : undefined;
  if (thinking !== undefined) out.reasoningTokens = thinking;
  return out;
}

/** IR usage → Anthropic usage: input_tokens = prompt total − cache read − cache write. */
export function usageToAnthropic(usage: Partial<IRUsage>): JsonObject {
  const cacheRead = usage.cacheReadTokens ?? 0;
  const cacheWrite = usage.cacheWriteTokens ?? 0;
  return {
    input_tokens: Math.max(0, (usage.inputTokens ?? 0) - cacheRead - cacheWrite),
    output_tokens: usage.outputTokens ?? 0,
    cache_creation_input_tokens: cacheWrite,
    cache_read_input_tokens: cacheRead,
  };
}

/** `message_delta.usage`: cumulative output plus whatever input counts are known by the end. */
export function deltaUsageToAnthropic(usage: Partial<IRUsage>): JsonObject {
  const out: JsonObject = { output_tokens: usage.outputTokens ?? 0 };
  if (usage.inputTokens === undefined) return out;
  return { ...usageToAnthropic(usage), ...out };
}
