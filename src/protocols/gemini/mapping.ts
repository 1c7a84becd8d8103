// Finish reasons (protocols.md §8.12) and usage (§8.13) ⇄ Gemini.
import type { IRStopReason, IRUsage } from '../ir.ts';
import { isRecord } from '../shared/json.ts';
import type { JsonObject } from '../shared/json.ts';
import { numberField } from './util.ts';

const CONTENT_FILTER = new Set([
  'SAFETY',
  'RECITATION',
  'LANGUAGE',
  'BLOCKLIST',
  'PROHIBITED_CONTENT',
  'SPII',
  'IMAGE_SAFETY',
  'IMAGE_PROHIBITED_CONTENT',
  'IMAGE_RECITATION',
  'IMAGE_OTHER',
  'NO_IMAGE',
  'OTHER',
]);

/** STOP with functionCall parts is a tool turn: Gemini has no tool-specific reason. */
export function stopReasonFromGemini(reason: string, sawFunctionCall: boolean): IRStopReason {
  if (reason === 'MAX_TOKENS') return 'max_tokens';
  if (CONTENT_FILTER.has(reason)) return 'content_filter';
  if (reason === 'STOP' && sawFunctionCall) return 'tool_use';
  return 'end_turn';
}

export function stopReasonToGemini(reason: IRStopReason): string {
  switch (reason) {
    case 'max_tokens':
    case 'context_window_exceeded':
      return 'MAX_TOKENS';
    case 'content_filter':
      return 'SAFETY';
    default:
      return 'STOP';
  }
}

/** usageMetadata → IR: prompt includes cache (+ tool-use prompt); output = candidates + thoughts. */
export function usageFromGemini(raw: unknown): Partial<IRUsage> {
  if (!isRecord(raw)) return {};
  const out: Partial<IRUsage> = {};
  const prompt = numberField(raw, 'promptTokenCount');
  const toolPrompt = numberField(raw, 'toolUsePromptTokenCount');
  if (prompt !== undefined || toolPrompt !== undefined) out.inputTokens = (prompt ?? 0) + (toolPrompt ?? 0);
  const candidates = numberField(raw, 'candidatesTokenCount');
  const thoughts = numberField(raw, 'thoughtsTokenCount');
  if (candidates !== undefined || thoughts !== undefined) out.outputTokens = (candidates ?? 0) + (thoughts ?? 0);
  if (thoughts !== undefined) out.reasoningTokens = thoughts;
  const cached = numberField(raw, 'cachedContentTokenCount');
  if (cached !== undefined) out.cacheReadTokens = cached;
  return out;
}

/** IR usage → usageMetadata: candidates = output − reasoning, total = prompt + output. */
export function usageToGemini(usage: Partial<IRUsage>): JsonObject {
  const prompt = usage.inputTokens ?? 0;
  const output = usage.outputTokens ?? 0;
  const thoughts = usage.reasoningTokens ?? 0;
  const out: JsonObject = {
    promptTokenCount: prompt,
    candidatesTokenCount: Math.max(0, output - thoughts),
    totalTokenCount: prompt + output,
  };
  if (thoughts > 0) out.thoughtsTokenCount = thoughts;
  if (usage.cacheReadTokens !== undefined && usage.cacheReadTokens > 0) out.cachedContentTokenCount = usage.cacheReadTokens;
  return out;
}
