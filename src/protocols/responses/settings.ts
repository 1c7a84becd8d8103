// Responses `text.format` and `reasoning` ⇄ IR (protocols.md §2.1, §8.10, §8.11).
import { CodecError } from '../codec.ts';
import type { IREffort, IRReasoningConfig, IRResponseFormat } from '../ir.ts';
import { isRecord, pushUnique } from '../shared/json.ts';
import type { JsonObject } from '../shared/json.ts';

const EFFORTS: readonly IREffort[] = ['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max'];
const SUMMARIES = new Set(['auto', 'concise', 'detailed']);

/** `text` → response format; `text.verbosity` cannot be carried and is reported. */
export function decodeTextConfig(text: unknown, dropped: string[]): IRResponseFormat | undefined {
  if (text === undefined || text === null) return undefined;
  if (!isRecord(text)) throw new CodecError("'text' must be an object", 'text');
  if (text['verbosity'] !== undefined && text['verbosity'] !== null) pushUnique(dropped, 'text.verbosity');
  const format = text['format'];
  if (format === undefined || format === null) return undefined;
  if (!isRecord(format)) throw new CodecError("'text.format' must be an object", 'text.format');
  if (format['type'] === 'text' || format['type'] === 'json_object') return { type: format['type'] };
  if (format['type'] !== 'json_schema') throw new CodecError(`text.format type '${String(format['type'])}' is not supported`, 'text.format.type');
  if (!isRecord(format['schema'])) throw new CodecError("'text.format.schema' is required", 'text.format.schema');
  const out: IRResponseFormat = { type: 'json_schema', schema: format['schema'] };
  if (typeof format['name'] === 'string') out.name = format['name'];
  if (typeof format['description'] === 'string') out.description = format['description'];
  if (typeof format['strict'] === 'boolean') out.strict = format['strict'];
  return out;
}

/** Responses needs a schema name; IR formats without one get this placeholder. */
export const DEFAULT_SCHEMA_NAME = 'response';

export function encodeFormat(format: IRResponseFormat | undefined): JsonObject {
  if (!format || format.type !== 'json_schema') return { type: format?.type ?? 'text' };
  const out: JsonObject = { type: 'json_schema', name: format.name ?? DEFAULT_SCHEMA_NAME, schema: format.schema };
  if (format.description !== undefined) out['description'] = format.description;
  if (format.strict !== undefined) out['strict'] = format.strict;
  return out;
}

export function decodeReasoning(raw: unknown): IRReasoningConfig | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (!isRecord(raw)) throw new CodecError("'reasoning' must be an object", 'reasoning');
  const effort = raw['effort'];
  if (effort !== undefined && effort !== null && !(EFFORTS as readonly unknown[]).includes(effort)) {
    throw new CodecError(`'reasoning.effort' must be one of ${EFFORTS.join(', ')}`, 'reasoning.effort');
  }
  const summary = raw['summary'] ?? raw['generate_summary'];
  if (summary !== undefined && summary !== null && !SUMMARIES.has(summary as string)) {
    throw new CodecError("'reasoning.summary' must be auto, concise or detailed", 'reasoning.summary');
  }
  const config: IRReasoningConfig = { enabled: effort !== 'none' };
  if (typeof effort === 'string') config.effort = effort as IREffort;
  if (summary !== undefined && summary !== null) config.includeThoughts = true;
  return config;
}

/** Budget → effort, the inverse of the heuristic table in protocols.md §8.11. */
function effortForBudget(budget: number): IREffort {
  if (budget <= 1024) return 'minimal';
  if (budget <= 2048) return 'low';
  if (budget <= 8192) return 'medium';
  return 'high';
}

export function encodeReasoning(reasoning: IRReasoningConfig): JsonObject | undefined {
  const out: JsonObject = {};
  if (reasoning.effort !== undefined) out['effort'] = reasoning.effort;
  else if (!reasoning.enabled) return undefined;
  else if (reasoning.budgetTokens !== undefined) out['effort'] = effortForBudget(reasoning.budgetTokens);
  if (reasoning.includeThoughts) out['summary'] = 'auto';
  return Object.keys(out).length > 0 ? out : undefined;
}
