// Thinking / effort / structured output ⇄ Anthropic (protocols.md §3.1, §8.10, §8.11).
import { CodecError } from '../codec.ts';
import type { IREffort, IRReasoningConfig, IRRequest, IRResponseFormat } from '../ir.ts';
import { expectRecord, fieldLabel, pushUnique } from '../shared/json.ts';
import type { JsonObject } from '../shared/json.ts';
import { optionalNumber } from './util.ts';

/** Effort → thinking budget (gateway heuristic from protocols.md §8.11, extended to xhigh/max). */
export const EFFORT_BUDGET: Record<Exclude<IREffort, 'none'>, number> = {
  minimal: 1024,
  low: 2048,
  medium: 8192,
  high: 24576,
  xhigh: 32768,
  max: 65536,
};

const MIN_BUDGET = 1024;
const DEFAULT_BUDGET = EFFORT_BUDGET.medium;
const OUTPUT_EFFORTS: readonly IREffort[] = ['low', 'medium', 'high', 'xhigh', 'max'];

export interface DecodedReasoning {
  reasoning?: IRReasoningConfig;
  responseFormat?: IRResponseFormat;
}

export function decodeReasoning(body: JsonObject, dropped: string[]): DecodedReasoning {
  const out: DecodedReasoning = {};
  if (body.thinking !== undefined && body.thinking !== null) out.reasoning = decodeThinking(body.thinking);
  if (body.output_config === undefined || body.output_config === null) return out;
  const config = expectRecord(body.output_config, 'output_config');
  for (const key of Object.keys(config)) {
    if (key !== 'effort' && key !== 'format') pushUnique(dropped, fieldLabel(`output_config.${key}`));
  }
  const effort = config.effort;
  if (effort !== undefined && effort !== null) {
    const known = OUTPUT_EFFORTS.find((candidate) => candidate === effort);
    if (known === undefined) throw new CodecError(`output_config.effort "${String(effort)}" is not supported`, 'output_config.effort');
    out.reasoning = { ...(out.reasoning ?? { enabled: true }), effort: known };
  }
  if (config.format !== undefined && config.format !== null) out.responseFormat = decodeFormat(config.format);
  return out;
}

function decodeThinking(raw: unknown): IRReasoningConfig {
  const thinking = expectRecord(raw, 'thinking');
  switch (thinking.type) {
    case 'enabled': {
      const budget = optionalNumber(thinking, 'budget_tokens', 'thinking.budget_tokens');
      if (budget === undefined) throw new CodecError('thinking.budget_tokens is required when thinking is enabled', 'thinking.budget_tokens');
      return { enabled: true, budgetTokens: budget, includeThoughts: true };
    }
    case 'adaptive':
      return { enabled: true, includeThoughts: true };
    case 'disabled':
      return { enabled: false };
    default:
      throw new CodecError(`thinking.type "${String(thinking.type)}" is not supported`, 'thinking.type');
  }
}

function decodeFormat(raw: unknown): IRResponseFormat {
  const format = expectRecord(raw, 'output_config.format');
  if (format.type !== 'json_schema') {
    throw new CodecError(`output_config.format.type "${String(format.type)}" is not supported`, 'output_config.format.type');
  }
  return { type: 'json_schema', schema: expectRecord(format.schema, 'output_config.format.schema') };
}

export interface EncodedThinking {
  thinking?: JsonObject;
  maxTokens: number;
}

/** Reasoning → `thinking:{type:'enabled', budget_tokens}`; the budget is ≥1024 and max_tokens is raised above it. */
export function encodeThinking(reasoning: IRReasoningConfig | undefined, maxTokens: number): EncodedThinking {
  if (reasoning === undefined || !reasoning.enabled || reasoning.effort === 'none') return { maxTokens };
  const effortBudget = reasoning.effort === undefined ? undefined : EFFORT_BUDGET[reasoning.effort];
  const budget = Math.max(MIN_BUDGET, Math.floor(reasoning.budgetTokens ?? effortBudget ?? DEFAULT_BUDGET));
  return {
    thinking: { type: 'enabled', budget_tokens: budget },
    maxTokens: maxTokens > budget ? maxTokens : budget + maxTokens,
  };
}

/** json_object has no Anthropic switch: it becomes a schema that only demands an object. */
export function encodeResponseFormat(format: IRResponseFormat | undefined): JsonObject | undefined {
  if (format === undefined || format.type === 'text') return undefined;
  const schema = format.type === 'json_object' ? { type: 'object' } : format.schema;
  return { format: { type: 'json_schema', schema } };
}

/**
 * Sampling settings Anthropic rejects while thinking is on (temperature must be 1, no top_k, top_p ≥ 0.95):
 * leave them out and say so.
 */
export function samplingWithThinking(request: IRRequest, thinking: boolean, dropped: string[]): JsonObject {
  const out: JsonObject = {};
  let temperature = request.temperature;
  if (temperature !== undefined && temperature > 1) {
    temperature = 1;
    pushUnique(dropped, 'temperature>1 clamped');
  }
  if (temperature !== undefined && temperature < 0) temperature = 0;
  if (temperature !== undefined) {
    if (thinking && temperature !== 1) pushUnique(dropped, 'temperature (thinking enabled)');
    else out.temperature = temperature;
  }
  if (request.topP !== undefined) {
    if (thinking && request.topP < 0.95) pushUnique(dropped, 'top_p (thinking enabled)');
    else out.top_p = request.topP;
  }
  if (request.topK !== undefined) {
    if (thinking) pushUnique(dropped, 'top_k (thinking enabled)');
    else out.top_k = request.topK;
  }
  return out;
}
